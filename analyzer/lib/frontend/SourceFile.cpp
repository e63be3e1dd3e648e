//===- SourceFile.cpp -----------------------------------------------------===//
#include "ivc/frontend/SourceFile.h"

#include "ivc/frontend/Unicode.h"

#include <algorithm>

namespace ivc {

SourceFile::SourceFile(std::string path, std::string text)
    : path_(std::move(path)), text_(std::move(text)) {
  // Python's tokenizer skips a UTF-8 byte-order mark, and editors do not
  // count it: positions start after it.
  if (std::string_view(text_).substr(0, 3) == "\xEF\xBB\xBF") {
    text_.erase(0, 3);
    byteOrderMark_ = true;
  }
  lineStarts_.push_back(0);
  for (uint32_t i = 0, n = text_.size(); i < n; ++i) {
    // \n, \r\n and a lone \r all end a line, as in Python's tokenizer.
    if (text_[i] == '\r') {
      if (i + 1 < n && text_[i + 1] == '\n')
        ++i;
      lineStarts_.push_back(i + 1);
    } else if (text_[i] == '\n') {
      lineStarts_.push_back(i + 1);
    }
  }
}

std::string_view SourceFile::slice(const SourceRange &r) const {
  uint32_t b = std::min<uint32_t>(r.begin.offset, text_.size());
  uint32_t e = std::clamp<uint32_t>(r.end.offset, b, text_.size());
  return std::string_view(text_).substr(b, e - b);
}

std::string_view SourceFile::lineText(uint32_t line) const {
  if (line >= lineStarts_.size())
    return {};
  uint32_t b = lineStarts_[line];
  uint32_t e = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] : text_.size();
  while (e > b && (text_[e - 1] == '\n' || text_[e - 1] == '\r'))
    --e;
  return std::string_view(text_).substr(b, e - b);
}

SourcePos SourceFile::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, text_.size());
  auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
  uint32_t line = uint32_t(it - lineStarts_.begin()) - 1;
  return {line, offset - lineStarts_[line], offset};
}

uint32_t SourceFile::offsetOf(uint32_t line, uint32_t column) const {
  if (line >= lineStarts_.size())
    return text_.size();
  return lineStarts_[line] + std::min<uint32_t>(column, lineText(line).size());
}

uint32_t SourceFile::utf16Column(uint32_t line, uint32_t byteColumn) const {
  std::string_view t = lineText(line);
  return utf16Length(t.substr(0, std::min<size_t>(byteColumn, t.size())));
}

uint32_t SourceFile::codePointColumn(uint32_t line, uint32_t byteColumn) const {
  std::string_view t = lineText(line);
  return codePointLength(t.substr(0, std::min<size_t>(byteColumn, t.size())));
}

uint32_t SourceFile::byteColumnFromUtf16(uint32_t line, uint32_t utf16Col) const {
  return byteOffsetOfUtf16(lineText(line), utf16Col);
}

} // namespace ivc
