//===- EditableText.h - A document's text under a batch of edits -----------===//
//
// One didChange may carry thousands of edits of a large document (a replace
// across a file), each addressed to the text its predecessors left. Building
// a SourceFile per edit rescans the whole text each time; this keeps the
// text with where its lines start and where its '\n's are, and updates both
// for the edited span and what follows it.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LSP_EDITABLETEXT_H
#define IVC_LSP_EDITABLETEXT_H

#include "ivc/lsp/Position.h"

#include <tree_sitter/api.h>

#include <string>
#include <string_view>
#include <vector>

namespace ivc::lsp {

class EditableText {
public:
  explicit EditableText(std::string text);

  const std::string &text() const { return text_; }
  std::string take() { return std::move(text_); }

  /// The byte offset of an LSP position, strictly (an edit's end points):
  /// a line past the last or a position inside a code point is an error.
  OffsetResult offsetOf(Position p, PositionEncoding e) const;
  /// The point of `offset` as tree-sitter counts: rows end at '\n' only,
  /// and the column is in bytes.
  TSPoint pointAt(uint32_t offset) const;
  /// Replaces the bytes [start, end) with `with`.
  void replace(uint32_t start, uint32_t end, std::string_view with);

private:
  /// Whether a line starts at `p` (0 < p <= size): after a '\n', or after a
  /// '\r' that no '\n' follows, as SourceFile counts lines.
  bool lineStartsAt(uint32_t p) const;

  std::string text_;
  std::vector<uint32_t> lineStarts_; // [0] is 0
  std::vector<uint32_t> newlines_;   // offsets of '\n'
};

} // namespace ivc::lsp

#endif
