//===- Unicode.h - UTF-8 helpers and identifier normalization -----------===//
#ifndef IVC_FRONTEND_UNICODE_H
#define IVC_FRONTEND_UNICODE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace ivc {

/// Normalizes an identifier to NFKC, as CPython's tokenizer does, so that
/// `ｅval` names `eval` and `__𝒸lass__` names `__class__`. ASCII is returned
/// unchanged without touching utf8proc. Invalid UTF-8 is returned as is.
std::string normalizeIdentifier(std::string_view name);

/// True when every byte is ASCII.
bool isAscii(std::string_view s);

/// Decodes one code point at `s[i]` and advances `i`; invalid bytes decode as
/// U+FFFD and advance by one.
char32_t decodeUtf8(std::string_view s, size_t &i);
void appendUtf8(std::string &out, char32_t cp);

uint32_t utf16Length(std::string_view utf8);
uint32_t codePointLength(std::string_view utf8);
/// The byte offset within `utf8` after `units` UTF-16 code units (clamped).
uint32_t byteOffsetOfUtf16(std::string_view utf8, uint32_t units);

} // namespace ivc

#endif
