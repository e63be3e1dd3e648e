//===- SourceFile.h - A Python source buffer and its line table ---------===//
//
// Positions in ivc are 0-based line and byte column plus the byte offset, as
// tree-sitter reports them; printers add 1 to line and column. The line table
// maps byte offsets back to lines, and converts columns to the UTF-16 and
// code-point units that editors and SARIF consumers count in.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_FRONTEND_SOURCEFILE_H
#define IVC_FRONTEND_SOURCEFILE_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ivc {

struct SourcePos {
  uint32_t line = 0;   // 0-based
  uint32_t column = 0; // 0-based, in bytes from the start of the line
  uint32_t offset = 0; // byte offset from the start of the file

  friend bool operator==(const SourcePos &, const SourcePos &) = default;
};

struct SourceRange {
  SourcePos begin, end;

  bool contains(uint32_t offset) const { return begin.offset <= offset && offset <= end.offset; }
  friend bool operator==(const SourceRange &, const SourceRange &) = default;
};

class SourceFile {
public:
  SourceFile(std::string path, std::string text);

  const std::string &path() const { return path_; }
  /// The text without the UTF-8 byte-order mark the file may start with.
  const std::string &text() const { return text_; }
  bool hasByteOrderMark() const { return byteOrderMark_; }
  std::string_view slice(const SourceRange &r) const;

  size_t lineCount() const { return lineStarts_.size(); }
  /// The text of a 0-based line without its line terminator.
  std::string_view lineText(uint32_t line) const;
  uint32_t lineStart(uint32_t line) const { return lineStarts_[line]; }
  /// The position of a byte offset (clamped to the end of the file).
  SourcePos position(uint32_t offset) const;
  /// The byte offset of a (line, byte column), clamped to the line's end.
  uint32_t offsetOf(uint32_t line, uint32_t column) const;

  /// Column conversions for one line: byte column <-> UTF-16 code units or code points.
  uint32_t utf16Column(uint32_t line, uint32_t byteColumn) const;
  uint32_t codePointColumn(uint32_t line, uint32_t byteColumn) const;
  uint32_t byteColumnFromUtf16(uint32_t line, uint32_t utf16Column) const;

private:
  std::string path_;
  std::string text_;
  std::vector<uint32_t> lineStarts_;
  bool byteOrderMark_ = false;
};

} // namespace ivc

#endif
