//===- Verify.cpp ---------------------------------------------------------===//
#include "ivc/engine/Verify.h"

#include "ivc/frontend/Grammar.h"

#include <tree_sitter/api.h>

#include <map>

namespace ivc {

namespace {

// Past these, a line number or a count is a typo: `expected-error
// 18446744073709551615` must not print that many "expected but not seen".
constexpr uint64_t MaxLine = uint64_t(1) << 31;
constexpr uint64_t MaxCount = 1000;

/// The decimal number at rest[j...] (j moves past it); nothing when there
/// are no digits or the number is over `max`.
std::optional<uint64_t> number(std::string_view rest, size_t &j, uint64_t max) {
  llvm::StringRef digits(rest.data() + j, rest.size() - j);
  uint64_t n = 0;
  if (digits.consumeInteger(10, n) || n > max)
    return std::nullopt;
  j = rest.size() - digits.size();
  return n;
}

struct Expectation {
  Severity severity;
  uint32_t line; // 0-based
  std::string text;
  unsigned count;
  uint32_t directiveLine;
};

struct Seen {
  Severity severity;
  uint32_t line;
  std::string message;
  std::string file; // empty: the verified file
  bool matched = false;
};

std::optional<Severity> severityFromName(std::string_view s) {
  if (s == "error") return Severity::Error;
  if (s == "warning") return Severity::Warning;
  if (s == "remark") return Severity::Remark;
  if (s == "note") return Severity::Note;
  return std::nullopt;
}

struct Directives {
  std::vector<Expectation> expected;
  bool noDiagnostics = false;
  std::vector<std::string> errors; // malformed directives
};

Directives parseDirectives(const ParsedFile &file) {
  Directives out;
  const std::string &text = file.source->text();
  TSNode root = ts_tree_root_node(file.tree.get());
  for (size_t pos = 0; (pos = text.find("expected-", pos)) != std::string::npos;) {
    size_t at = pos;
    pos += 9;
    TSNode n = ts_node_descendant_for_byte_range(root, uint32_t(at), uint32_t(at + 1));
    if (Grammar::python().sym(n) != Sym::comment)
      continue;
    uint32_t line = file.source->position(uint32_t(at)).line;
    std::string_view rest = std::string_view(text).substr(pos);
    rest = rest.substr(0, rest.find_first_of("\r\n"));
    if (rest.substr(0, 14) == "no-diagnostics") {
      out.noDiagnostics = true;
      continue;
    }
    size_t k = 0;
    while (k < rest.size() && rest[k] >= 'a' && rest[k] <= 'z')
      ++k;
    std::optional<Severity> sev = severityFromName(rest.substr(0, k));
    auto bad = [&](const std::string &why) {
      out.errors.push_back("line " + std::to_string(line + 1) + ": " + why);
    };
    if (k == 0)
      continue; // prose such as "expected-..." is not a directive
    if (!sev) {
      bad("unknown directive 'expected-" + std::string(rest.substr(0, k)) + "'");
      continue;
    }
    rest = rest.substr(k);
    int64_t target = line;
    if (!rest.empty() && rest[0] == '@') {
      size_t j = 1;
      int sign = 0;
      if (j < rest.size() && (rest[j] == '+' || rest[j] == '-'))
        sign = rest[j++] == '+' ? 1 : -1;
      std::optional<uint64_t> n = number(rest, j, MaxLine);
      if (!n) {
        bad("expected a line number of at most " + std::to_string(MaxLine) + " after '@'");
        continue;
      }
      target = sign ? int64_t(line) + sign * int64_t(*n) : int64_t(*n) - 1;
      rest = rest.substr(j);
    }
    size_t j = rest.find_first_not_of(" \t");
    rest = j == std::string_view::npos ? std::string_view() : rest.substr(j);
    unsigned count = 1;
    if (!rest.empty() && rest[0] >= '0' && rest[0] <= '9') {
      size_t d = 0;
      std::optional<uint64_t> n = number(rest, d, MaxCount);
      if (!n) {
        bad("expected a count of at most " + std::to_string(MaxCount));
        continue;
      }
      count = unsigned(*n);
      rest = rest.substr(d);
      j = rest.find_first_not_of(" \t");
      rest = j == std::string_view::npos ? std::string_view() : rest.substr(j);
    }
    size_t close = rest.find("}}");
    if (rest.substr(0, 2) != "{{" || close == std::string_view::npos) {
      bad("expected '{{text}}'");
      continue;
    }
    if (target < 0 || target > int64_t(MaxLine)) {
      bad("line offset outside the file");
      continue;
    }
    out.expected.push_back({*sev, uint32_t(target), std::string(rest.substr(2, close - 2)), count,
                            line});
  }
  return out;
}

} // namespace

VerifyResult verifyDiagnostics(const Analysis &analysis) {
  Directives dirs = parseDirectives(*analysis.parsed);
  bool checkRemarks = false, checkNotes = false;
  for (const Expectation &e : dirs.expected) {
    checkRemarks |= e.severity == Severity::Remark;
    checkNotes |= e.severity == Severity::Note;
  }
  std::vector<Seen> seen;
  for (size_t i = 0; i < analysis.diagnostics.size(); ++i) {
    if (analysis.suppressed[i])
      continue;
    const Diagnostic &d = analysis.diagnostics[i];
    std::string file = d.file ? d.file->path() : std::string();
    if (d.severity != Severity::Remark || checkRemarks)
      seen.push_back({d.severity, d.range.begin.line, d.message, file});
    if (checkNotes)
      for (const DiagNote &n : d.notes)
        seen.push_back({Severity::Note, n.range.begin.line, n.message,
                        n.file ? n.file->path() : file});
  }

  std::map<Severity, std::vector<std::string>> missing, unexpected;
  for (const Expectation &e : dirs.expected) {
    unsigned found = 0;
    for (Seen &s : seen) {
      if (found == e.count)
        break;
      if (!s.matched && s.file.empty() && s.severity == e.severity && s.line == e.line &&
          s.message.find(e.text) != std::string::npos) {
        s.matched = true;
        ++found;
      }
    }
    for (; found < e.count; ++found)
      missing[e.severity].push_back("Line " + std::to_string(e.line + 1) + ": " + e.text);
  }
  for (const Seen &s : seen)
    if (!s.matched)
      unexpected[s.severity].push_back(
          (s.file.empty() ? std::string() : "File " + s.file + " ") + "Line " +
          std::to_string(s.line + 1) + ": " + s.message);

  VerifyResult r;
  std::string &out = r.report;
  for (const std::string &e : dirs.errors)
    out += "error: malformed directive: " + e + "\n";
  if (dirs.noDiagnostics && !dirs.expected.empty())
    out += "error: expected-no-diagnostics with other expected diagnostics\n";
  size_t groups = dirs.errors.size();
  for (Severity s : {Severity::Error, Severity::Warning, Severity::Remark, Severity::Note}) {
    std::string name(severityName(s));
    if (auto it = missing.find(s); it != missing.end()) {
      out += "error: '" + name + "' diagnostics expected but not seen:\n";
      for (const std::string &l : it->second)
        out += "  " + l + "\n";
      ++groups;
    }
    if (auto it = unexpected.find(s); it != unexpected.end()) {
      out += "error: '" + name + "' diagnostics seen but not expected:\n";
      for (const std::string &l : it->second)
        out += "  " + l + "\n";
      ++groups;
    }
  }
  if (groups)
    out += std::to_string(groups) + (groups == 1 ? " error" : " errors") + " generated.\n";
  r.ok = groups == 0 && !(dirs.noDiagnostics && !dirs.expected.empty());
  return r;
}

} // namespace ivc
