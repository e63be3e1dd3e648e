//===- RuleDocs.cpp -------------------------------------------------------===//
#include "ivc/diag/RuleDocs.h"

#include <string>
#include <utility>

namespace ivc {

namespace {
constexpr std::pair<std::string_view, std::string_view> docs[] = {
#define IVC_RULE_DOC(code, text) {code, text},
#include "RuleDocs.inc"
#undef IVC_RULE_DOC
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == '\n' || s.front() == ' '))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
    s.remove_suffix(1);
  return s;
}
} // namespace

std::string_view ruleDoc(std::string_view code) {
  for (auto &[c, text] : docs)
    if (c == code)
      return text;
  return {};
}

std::string_view ruleDocSection(std::string_view code, std::string_view heading) {
  std::string_view doc = ruleDoc(code);
  std::string marker = "\n## " + std::string(heading) + "\n";
  size_t at = doc.find(marker);
  if (at == std::string_view::npos)
    return {};
  std::string_view rest = doc.substr(at + marker.size());
  size_t next = rest.find("\n## ");
  return trim(rest.substr(0, next));
}

std::string ruleHelpUri(std::string_view code) {
  return "https://github.com/ivc-dev/ivc/blob/main/docs/diagnostics/" + std::string(code) + ".md";
}

} // namespace ivc
