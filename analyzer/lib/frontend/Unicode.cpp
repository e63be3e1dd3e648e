//===- Unicode.cpp --------------------------------------------------------===//
#include "ivc/frontend/Unicode.h"

#include <cstdlib>
#include <utf8proc.h>

namespace ivc {

bool isAscii(std::string_view s) {
  for (unsigned char c : s)
    if (c >= 0x80)
      return false;
  return true;
}

std::string normalizeIdentifier(std::string_view name) {
  if (isAscii(name))
    return std::string(name);
  utf8proc_uint8_t *out = nullptr;
  utf8proc_ssize_t n = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t *>(name.data()),
                                    utf8proc_ssize_t(name.size()), &out,
                                    utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE |
                                                      UTF8PROC_COMPAT));
  if (n < 0)
    return std::string(name);
  std::string result(reinterpret_cast<char *>(out), size_t(n));
  std::free(out);
  return result;
}

char32_t decodeUtf8(std::string_view s, size_t &i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) {
    ++i;
    return c;
  }
  int len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return 0xFFFD;
  }
  char32_t cp = c & (0x7F >> len);
  for (int k = 1; k < len; ++k) {
    unsigned char cc = byte(i + k);
    if ((cc & 0xC0) != 0x80) {
      ++i;
      return 0xFFFD;
    }
    cp = (cp << 6) | (cc & 0x3F);
  }
  i += len;
  return cp;
}

void appendUtf8(std::string &out, char32_t cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

uint32_t utf16Length(std::string_view s) {
  uint32_t n = 0;
  for (size_t i = 0; i < s.size();)
    n += decodeUtf8(s, i) >= 0x10000 ? 2 : 1;
  return n;
}

uint32_t codePointLength(std::string_view s) {
  uint32_t n = 0;
  for (size_t i = 0; i < s.size(); decodeUtf8(s, i))
    ++n;
  return n;
}

uint32_t byteOffsetOfUtf16(std::string_view s, uint32_t units) {
  size_t i = 0;
  uint32_t seen = 0;
  while (i < s.size()) {
    size_t next = i;
    uint32_t w = decodeUtf8(s, next) >= 0x10000 ? 2 : 1;
    if (seen + w > units)
      break;
    seen += w;
    i = next;
  }
  return uint32_t(i);
}

} // namespace ivc
