//===- Position.h - LSP positions and the negotiated encoding ------------===//
//
// LSP counts a position's `character` in the units of the negotiated position
// encoding: UTF-16 code units unless the client offers UTF-8 (or asks for
// UTF-32). ivc counts bytes. These functions convert between the two through
// byte offsets and the line table of a SourceFile, whose line terminators
// (\n, \r\n, \r) are exactly LSP's. They never split a code point.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LSP_POSITION_H
#define IVC_LSP_POSITION_H

#include "ivc/frontend/SourceFile.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ivc::lsp {

enum class PositionEncoding : uint8_t { Utf8, Utf16, Utf32 };

/// "utf-8", "utf-16" or "utf-32", as LSP spells them.
llvm::StringRef encodingName(PositionEncoding e);
std::optional<PositionEncoding> parseEncoding(std::string_view name);

struct Position {
  int64_t line = 0;
  int64_t character = 0; // in units of the negotiated encoding

  friend bool operator==(const Position &, const Position &) = default;
};

struct Range {
  Position start, end;

  friend bool operator==(const Range &, const Range &) = default;
};

llvm::json::Value toJSON(const Position &p);
llvm::json::Value toJSON(const Range &r);
bool fromJSON(const llvm::json::Value &v, Position &p, llvm::json::Path path);
bool fromJSON(const llvm::json::Value &v, Range &r, llvm::json::Path path);

/// The number of `e` units in a UTF-8 string.
uint32_t unitCount(std::string_view utf8, PositionEncoding e);

/// The LSP position of byte `offset` (clamped to the text).
Position toPosition(const SourceFile &file, uint32_t offset, PositionEncoding e);
/// The LSP range of an ivc range, from its byte offsets.
Range toRange(const SourceFile &file, const SourceRange &r, PositionEncoding e);

/// Why a position has no byte offset.
enum class OffsetError : uint8_t {
  None,
  LineOutOfRange,  // a line past the last line of the text
  InsideCodePoint, // `character` falls between the units of one code point
};
std::string_view offsetErrorMessage(OffsetError e);

struct OffsetResult {
  uint32_t offset = 0;
  OffsetError error = OffsetError::None;
};

/// The byte offset of an LSP position. A `character` past the end of its
/// line means the end of the line, as LSP 3.17 says. When `strict` (text
/// edits), a line past the end or a position inside a code point is an error
/// and the offset is meaningless; otherwise (queries such as hover) they are
/// clamped: to the end of the text, and down to the start of the code point.
OffsetResult toOffset(const SourceFile &file, Position p, PositionEncoding e, bool strict);

/// The byte column after `units` units of `e` in `line`: the end of the line
/// when `units` reaches past it; `inside` is set when `units` falls between
/// the units of one code point (the column is then that code point's start).
uint32_t columnOf(std::string_view line, uint64_t units, PositionEncoding e, bool &inside);

} // namespace ivc::lsp

#endif
