//===- Position.cpp - LSP positions <-> byte offsets ----------------------===//
#include "ivc/lsp/Position.h"

#include "ivc/frontend/Unicode.h"

#include <algorithm>

namespace ivc::lsp {

llvm::StringRef encodingName(PositionEncoding e) {
  switch (e) {
  case PositionEncoding::Utf8: return "utf-8";
  case PositionEncoding::Utf16: return "utf-16";
  case PositionEncoding::Utf32: return "utf-32";
  }
  return "utf-16";
}

std::optional<PositionEncoding> parseEncoding(std::string_view name) {
  if (name == "utf-8")
    return PositionEncoding::Utf8;
  if (name == "utf-16")
    return PositionEncoding::Utf16;
  if (name == "utf-32")
    return PositionEncoding::Utf32;
  return std::nullopt;
}

llvm::json::Value toJSON(const Position &p) {
  return llvm::json::Object{{"line", p.line}, {"character", p.character}};
}

llvm::json::Value toJSON(const Range &r) {
  // Assigned: json::Object's initializer list would copy the nested objects.
  llvm::json::Object o;
  o["start"] = toJSON(r.start);
  o["end"] = toJSON(r.end);
  return o;
}

bool fromJSON(const llvm::json::Value &v, Position &p, llvm::json::Path path) {
  llvm::json::ObjectMapper o(v, path);
  if (!o || !o.map("line", p.line) || !o.map("character", p.character))
    return false;
  // LSP positions are uinteger; a negative one is a malformed request.
  if (p.line < 0) {
    path.field("line").report("expected a non-negative integer");
    return false;
  }
  if (p.character < 0) {
    path.field("character").report("expected a non-negative integer");
    return false;
  }
  return true;
}

bool fromJSON(const llvm::json::Value &v, Range &r, llvm::json::Path path) {
  llvm::json::ObjectMapper o(v, path);
  return o && o.map("start", r.start) && o.map("end", r.end);
}

uint32_t unitCount(std::string_view utf8, PositionEncoding e) {
  switch (e) {
  case PositionEncoding::Utf8: return uint32_t(utf8.size());
  case PositionEncoding::Utf16: return utf16Length(utf8);
  case PositionEncoding::Utf32: return codePointLength(utf8);
  }
  return 0;
}

Position toPosition(const SourceFile &file, uint32_t offset, PositionEncoding e) {
  SourcePos p = file.position(offset);
  std::string_view line = file.lineText(p.line);
  // An offset inside the line terminator counts as the end of the line.
  uint32_t column = std::min<uint32_t>(p.column, uint32_t(line.size()));
  return {int64_t(p.line), int64_t(unitCount(line.substr(0, column), e))};
}

Range toRange(const SourceFile &file, const SourceRange &r, PositionEncoding e) {
  return {toPosition(file, r.begin.offset, e), toPosition(file, r.end.offset, e)};
}

std::string_view offsetErrorMessage(OffsetError e) {
  switch (e) {
  case OffsetError::None: return "";
  case OffsetError::LineOutOfRange: return "line is past the end of the document";
  case OffsetError::InsideCodePoint: return "character is inside a code point";
  }
  return "";
}

uint32_t columnOf(std::string_view line, uint64_t units, PositionEncoding e, bool &inside) {
  inside = false;
  size_t i = 0;
  uint64_t seen = 0;
  while (i < line.size() && seen < units) {
    size_t next = i;
    char32_t cp = decodeUtf8(line, next);
    uint64_t width = e == PositionEncoding::Utf8    ? next - i
                     : e == PositionEncoding::Utf16 ? (cp >= 0x10000 ? 2 : 1)
                                                    : 1;
    if (seen + width > units) {
      inside = true;
      break;
    }
    seen += width;
    i = next;
  }
  return uint32_t(i);
}

OffsetResult toOffset(const SourceFile &file, Position p, PositionEncoding e, bool strict) {
  if (p.line < 0 || uint64_t(p.line) >= file.lineCount()) {
    if (strict)
      return {0, OffsetError::LineOutOfRange};
    return {uint32_t(file.text().size()), OffsetError::None};
  }
  uint32_t line = uint32_t(p.line);
  bool inside = false;
  uint32_t column =
      columnOf(file.lineText(line), uint64_t(std::max<int64_t>(p.character, 0)), e, inside);
  if (inside && strict)
    return {0, OffsetError::InsideCodePoint};
  return {file.lineStart(line) + column, OffsetError::None};
}

} // namespace ivc::lsp
