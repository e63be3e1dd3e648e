//===- Text.h - Small text utilities shared by passes and the plan -------===//
#ifndef IVC_SUPPORT_TEXT_H
#define IVC_SUPPORT_TEXT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ivc {

/// `text`, whose first line starts at byte column `column` of its line, moved
/// to column 0: later lines lose up to `column` leading blanks. Ends in "\n".
std::string dedent(std::string_view text, uint32_t column);

/// The value of a Python integer literal as written (`10`, `0o12`, `0b1010`,
/// `0x_ff`, `1_000`), or nothing when it does not fit in an int64.
std::optional<int64_t> pythonInt(std::string_view literal);

} // namespace ivc

#endif
