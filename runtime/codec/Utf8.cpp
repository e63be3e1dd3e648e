//===- Utf8.cpp - Strict UTF-8 validation ---------------------------------===//
//
// Python's str cannot hold overlong forms, and a str built from surrogate
// code points cannot be re-encoded; refusing both here means every decoded
// Str converts to a Python str without error handling on the host.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/codec/Codec.h"

namespace ivc::runtime::codec {

bool isValidUtf8(std::string_view s) {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  size_t n = s.size(), i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    unsigned len;
    uint32_t cp;
    if ((c & 0xe0) == 0xc0) {
      len = 2;
      cp = c & 0x1f;
    } else if ((c & 0xf0) == 0xe0) {
      len = 3;
      cp = c & 0x0f;
    } else if ((c & 0xf8) == 0xf0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (n - i < len)
      return false;
    for (unsigned k = 1; k < len; ++k) {
      if ((p[i + k] & 0xc0) != 0x80)
        return false;
      cp = (cp << 6) | (p[i + k] & 0x3f);
    }
    static constexpr uint32_t MinForLen[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < MinForLen[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += len;
  }
  return true;
}

} // namespace ivc::runtime::codec
