//===- DocumentStoreTest.cpp - Incremental edits of text and tree --------===//
#include "ivc/lsp/DocumentStore.h"

#include <gtest/gtest.h>

#include <random>

using namespace ivc;
using namespace ivc::lsp;

namespace {

const std::string Uri = "file:///t/doc.py";

ContentChange change(Position start, Position end, std::string text) {
  return ContentChange{Range{start, end}, std::move(text)};
}

std::string textOf(const DocumentStore &docs) { return docs.snapshot(Uri)->source->text(); }

// Every node with its kind, byte range and start/end points: two trees with
// the same dump have the same shape and the same positions.
std::string dump(const TSTree *tree) {
  std::string out;
  TSTreeCursor c = ts_tree_cursor_new(ts_tree_root_node(tree));
  bool down = true;
  while (true) {
    if (down) {
      TSNode n = ts_tree_cursor_current_node(&c);
      TSPoint b = ts_node_start_point(n), e = ts_node_end_point(n);
      out += std::string(ts_node_type(n)) + " " + std::to_string(ts_node_start_byte(n)) + "-" +
             std::to_string(ts_node_end_byte(n)) + " " + std::to_string(b.row) + ":" +
             std::to_string(b.column) + "-" + std::to_string(e.row) + ":" +
             std::to_string(e.column) + "\n";
      if (ts_tree_cursor_goto_first_child(&c))
        continue;
    }
    if (ts_tree_cursor_goto_next_sibling(&c)) {
      down = true;
      continue;
    }
    down = false;
    if (!ts_tree_cursor_goto_parent(&c))
      break;
  }
  ts_tree_cursor_delete(&c);
  return out;
}

} // namespace

TEST(ApplyChange, InsertionAndItsTreeEdit) {
  EditableText text("a = 1\nb = '\xC3\xA9'\n");
  TSInputEdit e;
  // After the é of line 1 (UTF-16 column 6, byte column 7), insert "x\ny".
  ASSERT_FALSE(bool(applyChange(text, change({1, 6}, {1, 6}, "x\ny"), PositionEncoding::Utf16, e)));
  EXPECT_EQ(text.text(), "a = 1\nb = '\xC3\xA9x\ny'\n");
  EXPECT_EQ(e.start_byte, 13u);
  EXPECT_EQ(e.old_end_byte, 13u);
  EXPECT_EQ(e.new_end_byte, 16u);
  EXPECT_EQ(e.start_point.row, 1u);
  EXPECT_EQ(e.start_point.column, 7u); // tree-sitter columns are bytes
  EXPECT_EQ(e.new_end_point.row, 2u);
  EXPECT_EQ(e.new_end_point.column, 1u);
}

TEST(ApplyChange, DeletionAcrossLines) {
  EditableText text("ab\ncd\nef\n");
  TSInputEdit e;
  ASSERT_FALSE(bool(applyChange(text, change({0, 1}, {2, 1}, ""), PositionEncoding::Utf16, e)));
  EXPECT_EQ(text.text(), "af\n");
  EXPECT_EQ(e.old_end_point.row, 2u);
  EXPECT_EQ(e.old_end_point.column, 1u);
  EXPECT_EQ(e.new_end_point.row, 0u);
  EXPECT_EQ(e.new_end_point.column, 1u);
}

TEST(ApplyChange, RejectsWhatIsOutOfRange) {
  EditableText text("ab\n\xF0\x9F\x98\x80\n");
  TSInputEdit e;
  llvm::Error past = applyChange(text, change({5, 0}, {5, 0}, "x"), PositionEncoding::Utf16, e);
  EXPECT_TRUE(bool(past));
  llvm::consumeError(std::move(past));
  llvm::Error split = applyChange(text, change({1, 1}, {1, 1}, "x"), PositionEncoding::Utf16, e);
  ASSERT_TRUE(bool(split));
  EXPECT_NE(llvm::toString(std::move(split)).find("inside a code point"), std::string::npos);
  llvm::Error reversed = applyChange(text, change({0, 2}, {0, 1}, ""), PositionEncoding::Utf16, e);
  EXPECT_TRUE(bool(reversed));
  llvm::consumeError(std::move(reversed));
  EXPECT_EQ(text.text(), "ab\n\xF0\x9F\x98\x80\n");
}

TEST(EditableText, KeepsLinesAsSourceFileAndTreeSitterCountThem) {
  // Random edits of text full of line ends of every kind, \r\n pairs made
  // and split included: after each, every position resolves as it does in
  // a SourceFile of the same text, and every point as counting '\n' says.
  std::mt19937 rng(7);
  const char alphabet[] = {'a', '\n', '\r', 'b', '\r', '\n'};
  auto piece = [&](size_t most) {
    std::string s(rng() % (most + 1), 'a');
    for (char &c : s)
      c = alphabet[rng() % sizeof alphabet];
    return s;
  };
  EditableText text(piece(40));
  for (int round = 0; round < 2000; ++round) {
    uint32_t size = uint32_t(text.text().size());
    uint32_t a = rng() % (size + 1), b = std::min<uint32_t>(size, a + rng() % 6);
    text.replace(a, b, piece(5));
    SourceFile file("f.py", text.text());
    for (uint32_t line = 0; line <= file.lineCount(); ++line)
      for (int64_t character : {0, 1, 3, 100}) {
        Position p{int64_t(line), character};
        OffsetResult got = text.offsetOf(p, PositionEncoding::Utf16);
        OffsetResult want = toOffset(file, p, PositionEncoding::Utf16, /*strict=*/true);
        ASSERT_EQ(got.error, want.error) << "round " << round << " line " << line;
        if (want.error == OffsetError::None) {
          ASSERT_EQ(got.offset, want.offset) << "round " << round << " line " << line;
        }
      }
    for (uint32_t offset = 0; offset <= text.text().size(); ++offset) {
      std::string_view before = std::string_view(text.text()).substr(0, offset);
      uint32_t rows = uint32_t(std::count(before.begin(), before.end(), '\n'));
      size_t nl = before.rfind('\n');
      TSPoint p = text.pointAt(offset);
      ASSERT_EQ(p.row, rows);
      ASSERT_EQ(p.column, nl == std::string_view::npos ? offset : uint32_t(offset - nl - 1));
    }
  }
}

TEST(DocumentStore, ChangesAreAllOrNothing) {
  DocumentStore docs;
  docs.open(Uri, 1, "ab\ncd\n");
  llvm::Error err = docs.change(
      Uri, 2, {change({0, 0}, {0, 0}, "x"), change({9, 0}, {9, 0}, "y")}, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
  EXPECT_EQ(textOf(docs), "ab\ncd\n");
  EXPECT_EQ(docs.snapshot(Uri)->version, 1);

  // Applied in order: the second range is in the text the first made.
  ASSERT_FALSE(bool(docs.change(Uri, 3,
                                {change({0, 0}, {0, 0}, "x\n"), change({1, 1}, {1, 2}, "B")},
                                PositionEncoding::Utf16)));
  EXPECT_EQ(textOf(docs), "x\naB\ncd\n");
  EXPECT_EQ(docs.snapshot(Uri)->version, 3);
}

TEST(DocumentStore, NotOpen) {
  DocumentStore docs;
  llvm::Error err = docs.change(Uri, 2, {ContentChange{std::nullopt, "x"}}, PositionEncoding::Utf16);
  EXPECT_TRUE(bool(err));
  llvm::consumeError(std::move(err));
  EXPECT_FALSE(docs.snapshot(Uri));
  EXPECT_FALSE(docs.close(Uri));
}

TEST(DocumentStore, AdoptsOnlyTheTreeOfTheCurrentText) {
  DocumentStore docs;
  Frontend frontend;
  docs.open(Uri, 1, "a = 1\n");
  Snapshot s = std::move(*docs.snapshot(Uri));
  EXPECT_FALSE(s.oldTree);
  ASSERT_FALSE(bool(docs.change(Uri, 2, {change({0, 4}, {0, 5}, "2")}, PositionEncoding::Utf16)));
  // The parse of version 1 arrives after version 2: not a base for version 2.
  docs.adoptTree(Uri, s.generation, frontend.parseTree(s.source->text()));
  EXPECT_FALSE(docs.snapshot(Uri)->oldTree);
  Snapshot s2 = std::move(*docs.snapshot(Uri));
  docs.adoptTree(Uri, s2.generation, frontend.parseTree(s2.source->text()));
  EXPECT_TRUE(docs.snapshot(Uri)->oldTree);
}

// The language server frees the tree of a document whose analysis it
// dropped; a tree the document has moved past is not the one dropped.
TEST(DocumentStore, DropTreeFreesOnlyTheTreeOfThatVersion) {
  DocumentStore docs;
  Frontend frontend;
  docs.open(Uri, 1, "a = 1\n");
  Snapshot s = std::move(*docs.snapshot(Uri));
  docs.adoptTree(Uri, s.generation, frontend.parseTree(s.source->text()));
  docs.dropTree(Uri, s.generation);
  EXPECT_FALSE(docs.snapshot(Uri)->oldTree);

  docs.adoptTree(Uri, s.generation, frontend.parseTree(s.source->text()));
  ASSERT_FALSE(bool(docs.change(Uri, 2, {change({0, 4}, {0, 5}, "2")}, PositionEncoding::Utf16)));
  docs.dropTree(Uri, s.generation); // of version 1: the edited tree stays
  EXPECT_TRUE(docs.snapshot(Uri)->oldTree);
  docs.dropTree("file:///not/open.py", 1);
}

// The real check of the tree edits: after random edits (multi-byte text, new
// lines, deletions), an incremental re-parse from the edited tree gives the
// same tree, positions included, as a parse from scratch.
TEST(DocumentStore, IncrementalReparseMatchesAFreshParse) {
  std::string text;
  for (int i = 0; i < 40; ++i)
    text += "x" + std::to_string(i) + " = 'v" + std::to_string(i) + "'\n" +
            (i % 5 == 0 ? "with m.trace():\n    y = 'w'\n" : "");
  DocumentStore docs;
  Frontend frontend;
  docs.open(Uri, 1, text);
  std::mt19937 rng(7);
  const char *pieces[] = {"a", "\xC3\xA9", "\xF0\x9F\x98\x80", "\xE2\x82\xAC", ""};
  int64_t version = 1;
  for (int round = 0; round < 150; ++round) {
    Snapshot s = std::move(*docs.snapshot(Uri));
    TreeHandle fresh = frontend.parseTree(s.source->text());
    if (s.oldTree) {
      TreeHandle incremental = frontend.parseTree(s.source->text(), s.oldTree.get());
      ASSERT_EQ(dump(incremental.get()), dump(fresh.get())) << "round " << round;
    }
    // Usually keep the new tree; sometimes let several edits pile up on an old one.
    if (round % 3 != 2)
      docs.adoptTree(Uri, s.generation, std::move(fresh));

    // Edits that keep the file valid Python, so that both parses are
    // error-free and must agree: change the contents of a string literal,
    // or insert or delete a whole top-level line.
    const SourceFile &f = *s.source;
    uint32_t line = uint32_t(rng() % (f.lineCount() - 1));
    std::string_view lt = f.lineText(line);
    std::vector<ContentChange> changes;
    size_t open = lt.find('\''), close = lt.rfind('\'');
    if (rng() % 3 == 0 && lt.substr(0, 4) != "    " && lt.substr(0, 4) != "with") {
      if (rng() % 2)
        changes.push_back(change({line, 0}, {line, 0}, "z" + std::to_string(round) + " = 0\n"));
      else
        changes.push_back(change({line, 0}, {line + 1, 0}, ""));
    } else if (open != std::string_view::npos && close > open) {
      // A range inside the quotes, in UTF-16 units.
      uint32_t from = f.lineStart(line) + uint32_t(open) + 1, to = f.lineStart(line) + uint32_t(close);
      std::vector<uint32_t> cuts;
      for (uint32_t o = from; o <= to; ++o)
        if (o == to || (static_cast<unsigned char>(f.text()[o]) & 0xC0) != 0x80)
          cuts.push_back(o);
      uint32_t a = cuts[rng() % cuts.size()], b = cuts[rng() % cuts.size()];
      if (a > b)
        std::swap(a, b);
      changes.push_back(change(toPosition(f, a, PositionEncoding::Utf16),
                               toPosition(f, b, PositionEncoding::Utf16),
                               pieces[rng() % std::size(pieces)]));
    } else {
      continue;
    }
    llvm::Error err = docs.change(Uri, ++version, changes, PositionEncoding::Utf16);
    ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  }
}
