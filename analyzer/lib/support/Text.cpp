//===- Text.cpp -----------------------------------------------------------===//
#include "ivc/support/Text.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>

namespace ivc {

uint32_t indentWidth(std::string_view blanks) {
  uint32_t width = 0;
  for (char c : blanks) {
    if (c == ' ')
      ++width;
    else if (c == '\t')
      width += 8;
    else if (c == '\f')
      width = 0;
    else
      break;
  }
  return width;
}

std::string dedent(std::string_view text, uint32_t indent, llvm::function_ref<bool(size_t)> keep) {
  std::string out;
  out.reserve(text.size() + 1);
  uint32_t carried = 0; // of lines of blanks ended by a backslash
  for (size_t i = 0; i < text.size();) {
    if (i > 0 && !(keep && keep(i))) {
      size_t blanks = text.find_first_not_of(" \t\f", i);
      blanks = blanks == std::string_view::npos ? text.size() : blanks;
      std::string_view own = text.substr(i, blanks - i);
      // (A form feed resets the count, the carried blanks too.)
      uint32_t width = (own.find('\f') == std::string_view::npos ? carried : 0) + indentWidth(own);
      carried = 0;
      // The parser adds blanks, a backslash and the next line's blanks up
      // (Python takes the first line's): the backslash goes, and the next
      // line gets the sum.
      std::string_view rest = text.substr(blanks);
      if (rest.starts_with("\\\n") || rest.starts_with("\\\r") || rest == "\\") {
        carried = width;
        size_t eol = rest.starts_with("\\\r\n") ? 3 : rest.size() > 1 ? 2 : 1;
        out += rest.substr(1, eol - 1);
        i = blanks + eol;
        continue;
      }
      out.append(width > indent ? width - indent : 0, ' ');
      i = blanks;
    }
    size_t end = text.find_first_of("\r\n", i);
    if (end == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    end += text.compare(end, 2, "\r\n") == 0 ? 2 : 1;
    out += text.substr(i, end - i);
    i = end;
  }
  if (!out.empty() && out.back() != '\n' && out.back() != '\r')
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
