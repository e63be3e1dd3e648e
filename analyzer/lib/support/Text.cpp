//===- Text.cpp -----------------------------------------------------------===//
#include "ivc/support/Text.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ivc {

std::string dedent(std::string_view text, uint32_t column) {
  std::string out;
  bool first = true;
  for (size_t i = 0; i <= text.size();) {
    size_t nl = text.find('\n', i);
    std::string_view line =
        text.substr(i, nl == std::string_view::npos ? std::string_view::npos : nl - i);
    if (!first) {
      size_t strip = 0;
      while (strip < column && strip < line.size() && (line[strip] == ' ' || line[strip] == '\t'))
        ++strip;
      line = line.substr(strip);
    }
    first = false;
    out += line;
    if (nl == std::string_view::npos)
      break;
    out += '\n';
    i = nl + 1;
  }
  if (!out.empty() && out.back() != '\n')
    out += '\n';
  return out;
}

std::optional<int64_t> pythonInt(std::string_view literal) {
  std::string digits;
  for (char c : literal)
    if (c != '_')
      digits += c;
  int base = 10;
  size_t skip = 0;
  if (digits.size() > 1 && digits[0] == '0' && std::isalpha(static_cast<unsigned char>(digits[1]))) {
    char p = static_cast<char>(std::tolower(static_cast<unsigned char>(digits[1])));
    base = p == 'x' ? 16 : p == 'o' ? 8 : p == 'b' ? 2 : 0;
    skip = 2;
  }
  if (base == 0 || skip >= digits.size())
    return std::nullopt;
  errno = 0;
  char *end = nullptr;
  long long v = std::strtoll(digits.c_str() + skip, &end, base);
  if (errno != 0 || !end || *end != '\0')
    return std::nullopt;
  return int64_t(v);
}

} // namespace ivc
