//===- EditableText.cpp ---------------------------------------------------===//
#include "ivc/lsp/EditableText.h"

#include <algorithm>

namespace ivc::lsp {

EditableText::EditableText(std::string text) : text_(std::move(text)) {
  lineStarts_.push_back(0);
  for (uint32_t p = 1; p <= text_.size(); ++p)
    if (lineStartsAt(p))
      lineStarts_.push_back(p);
  for (uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n')
      newlines_.push_back(i);
}

bool EditableText::lineStartsAt(uint32_t p) const {
  char before = text_[p - 1];
  return before == '\n' || (before == '\r' && (p == text_.size() || text_[p] != '\n'));
}

OffsetResult EditableText::offsetOf(Position p, PositionEncoding e) const {
  if (p.line < 0 || uint64_t(p.line) >= lineStarts_.size())
    return {0, OffsetError::LineOutOfRange};
  uint32_t line = uint32_t(p.line);
  uint32_t begin = lineStarts_[line];
  uint32_t end = line + 1 < lineStarts_.size() ? lineStarts_[line + 1] : uint32_t(text_.size());
  while (end > begin && (text_[end - 1] == '\n' || text_[end - 1] == '\r'))
    --end;
  bool inside = false;
  uint32_t column = columnOf(std::string_view(text_).substr(begin, end - begin),
                             uint64_t(std::max<int64_t>(p.character, 0)), e, inside);
  if (inside)
    return {0, OffsetError::InsideCodePoint};
  return {begin + column, OffsetError::None};
}

TSPoint EditableText::pointAt(uint32_t offset) const {
  auto after = std::lower_bound(newlines_.begin(), newlines_.end(), offset);
  uint32_t row = uint32_t(after - newlines_.begin());
  return {row, row == 0 ? offset : offset - (*(after - 1) + 1)};
}

void EditableText::replace(uint32_t start, uint32_t end, std::string_view with) {
  uint32_t newEnd = start + uint32_t(with.size());
  int64_t delta = int64_t(with.size()) - int64_t(end - start);
  auto shift = [delta](uint32_t &p) { p = uint32_t(int64_t(p) + delta); };

  // '\n's: those in [start, end) go, those of `with` come, later ones move.
  auto lo = std::lower_bound(newlines_.begin(), newlines_.end(), start);
  auto hi = std::lower_bound(lo, newlines_.end(), end);
  std::vector<uint32_t> added;
  for (uint32_t i = 0; i < with.size(); ++i)
    if (with[i] == '\n')
      added.push_back(start + i);
  std::for_each(hi, newlines_.end(), shift);
  newlines_.insert(newlines_.erase(lo, hi), added.begin(), added.end());

  // Line starts depend on the byte before them and the one they start at:
  // those in [start, end + 1] are found again in [start, newEnd + 1].
  uint32_t from = std::max<uint32_t>(start, 1);
  auto first = std::lower_bound(lineStarts_.begin() + 1, lineStarts_.end(), from);
  auto last = std::upper_bound(first, lineStarts_.end(), end + 1);
  std::for_each(last, lineStarts_.end(), shift);
  text_.replace(start, end - start, with);
  added.clear();
  for (uint32_t p = from; p <= std::min<uint32_t>(newEnd + 1, uint32_t(text_.size())); ++p)
    if (lineStartsAt(p))
      added.push_back(p);
  lineStarts_.insert(lineStarts_.erase(first, last), added.begin(), added.end());
}

} // namespace ivc::lsp
