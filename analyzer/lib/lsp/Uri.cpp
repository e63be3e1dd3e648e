//===- Uri.cpp ------------------------------------------------------------===//
#include "ivc/lsp/Uri.h"

#include "ivc/support/Uri.h"

namespace ivc::lsp {

namespace {

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

} // namespace

std::optional<std::string> uriToPath(std::string_view uri) {
  constexpr std::string_view scheme = "file://";
  if (uri.size() < scheme.size() || uri.substr(0, scheme.size()) != scheme)
    return std::nullopt;
  std::string_view rest = uri.substr(scheme.size());
  // file://host/path: only the local host (empty or "localhost") is a path here.
  size_t slash = rest.find('/');
  if (slash == std::string_view::npos)
    return std::nullopt;
  std::string_view host = rest.substr(0, slash);
  if (!host.empty() && host != "localhost")
    return std::nullopt;
  rest = rest.substr(slash);
  rest = rest.substr(0, rest.find_first_of("?#"));
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] != '%') {
      path += rest[i];
      continue;
    }
    int hi = i + 2 < rest.size() ? hexValue(rest[i + 1]) : -1;
    int lo = i + 2 < rest.size() ? hexValue(rest[i + 2]) : -1;
    if (hi < 0 || lo < 0)
      return std::nullopt;
    path += char(hi * 16 + lo);
    i += 2;
  }
  return path;
}

std::string pathToUri(std::string_view path) { return "file://" + percentEncodePath(path); }

} // namespace ivc::lsp
