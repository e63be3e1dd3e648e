//===- StringLiteral.h - Decoding Python string literals ----------------===//
//
// The analyzer reasons about string values (attribute names passed to
// getattr, format strings, import names), so literals are decoded exactly as
// CPython decodes them: prefixes, escapes, \N{...}, raw and bytes literals.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_FRONTEND_STRINGLITERAL_H
#define IVC_FRONTEND_STRINGLITERAL_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ivc {

struct StringPrefix {
  bool raw = false;
  bool bytes = false;
  bool format = false;
  bool valid = true;    // false for an unknown prefix letter or combination
  uint32_t prefixLength = 0;
  uint32_t quoteLength = 0; // 1 or 3
};

/// Parses the opening token of a literal (`rb'''`, `f"`, ...).
StringPrefix parseStringPrefix(std::string_view start);

struct StringDecodeError {
  uint32_t offset; // byte offset within the decoded body
  uint32_t length;
  std::string message;
};

enum class LiteralKind { Str, Bytes, FormatLiteralPart };

/// Decodes the body of a literal (between the quotes). Bytes are returned as
/// raw bytes; str values as UTF-8. In a FormatLiteralPart, `{{` and `}}`
/// decode to single braces. Source line endings decode as "\n", as in CPython.
std::string decodeStringBody(std::string_view body, bool raw, LiteralKind kind,
                             std::vector<StringDecodeError> *errors = nullptr);

} // namespace ivc

#endif
