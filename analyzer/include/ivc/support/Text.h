//===- Text.h - Small text utilities shared by passes and the plan -------===//
#ifndef IVC_SUPPORT_TEXT_H
#define IVC_SUPPORT_TEXT_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ivc {

/// `text`, whose first line starts at byte column `column` of its line, moved
/// to column 0: later lines lose up to `column` leading blanks (form feeds,
/// which reset Python's indentation count, go too), but for a line that
/// `keep` says starts inside a string literal (given the line's offset in
/// `text`): its blanks are the string's. Lines end as in `text` ("\n",
/// "\r\n" or "\r"); the result ends in one.
std::string dedent(std::string_view text, uint32_t column,
                   llvm::function_ref<bool(size_t)> keep = nullptr);

/// The value of a Python integer literal as written (`10`, `0o12`, `0b1010`,
/// `0x_ff`, `1_000`), or nothing when it does not fit in an int64.
std::optional<int64_t> pythonInt(std::string_view literal);

} // namespace ivc

#endif
