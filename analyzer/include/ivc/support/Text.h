//===- Text.h - Small text utilities shared by passes and the plan -------===//
#ifndef IVC_SUPPORT_TEXT_H
#define IVC_SUPPORT_TEXT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ivc {

/// The indentation of a line that starts with `blanks`, counted as the
/// parser counts it (a space 1, a tab 8, a form feed back to 0).
uint32_t indentWidth(std::string_view blanks);

/// `text`, code whose first line is indented `indent` (indentWidth) and
/// starts at `text`'s first byte, moved to column 0: each later line's
/// leading blanks become spaces, `indent` fewer, so that the structure
/// Python reads is the one the parser read (tabs and spaces mixed included),
/// but for a line that `keep` says starts inside a string literal (given
/// the line's offset in `text`): its blanks are the string's. Lines end as
/// in `text` ("\n", "\r\n" or "\r"); the result ends in one.
std::string dedent(std::string_view text, uint32_t indent,
                   llvm::function_ref<bool(size_t)> keep = nullptr);

/// The value of a Python integer literal as written (`10`, `0o12`, `0b1010`,
/// `0x_ff`, `1_000`), or nothing when it does not fit in an int64.
std::optional<int64_t> pythonInt(std::string_view literal);

} // namespace ivc

#endif
