//===- PositionTest.cpp - LSP positions <-> byte offsets ------------------===//
#include "ivc/lsp/Position.h"

#include <gtest/gtest.h>

using namespace ivc;
using namespace ivc::lsp;

namespace {

// "aé😀b": a (1 byte), é (2 bytes, 1 UTF-16 unit), 😀 (4 bytes, 2 units), b.
const char *Mixed = "a\xC3\xA9\xF0\x9F\x98\x80" "b";

constexpr PositionEncoding All[] = {PositionEncoding::Utf8, PositionEncoding::Utf16,
                                    PositionEncoding::Utf32};

} // namespace

TEST(PositionEncoding, Names) {
  for (PositionEncoding e : All)
    EXPECT_EQ(parseEncoding(encodingName(e).str()), e);
  EXPECT_FALSE(parseEncoding("utf-7"));
}

TEST(PositionEncoding, UnitCounts) {
  EXPECT_EQ(unitCount(Mixed, PositionEncoding::Utf8), 8u);
  EXPECT_EQ(unitCount(Mixed, PositionEncoding::Utf16), 5u);
  EXPECT_EQ(unitCount(Mixed, PositionEncoding::Utf32), 4u);
}

TEST(Position, ColumnsOfANonAsciiLine) {
  SourceFile f("f.py", std::string("x\n") + Mixed + "\n");
  uint32_t b = 2 + 7; // the 'b' on line 1
  EXPECT_EQ(toPosition(f, b, PositionEncoding::Utf8), (Position{1, 7}));
  EXPECT_EQ(toPosition(f, b, PositionEncoding::Utf16), (Position{1, 4}));
  EXPECT_EQ(toPosition(f, b, PositionEncoding::Utf32), (Position{1, 3}));
  EXPECT_EQ(toOffset(f, {1, 4}, PositionEncoding::Utf16, true).offset, b);
  EXPECT_EQ(toOffset(f, {1, 7}, PositionEncoding::Utf8, true).offset, b);
  EXPECT_EQ(toOffset(f, {1, 3}, PositionEncoding::Utf32, true).offset, b);
}

TEST(Position, LineTerminators) {
  // \r\n, a lone \r and \n all end lines, as LSP says.
  SourceFile f("f.py", "ab\r\ncd\ref\nxy");
  EXPECT_EQ(f.lineCount(), 4u);
  EXPECT_EQ(toPosition(f, 4, PositionEncoding::Utf16), (Position{1, 0}));
  EXPECT_EQ(toPosition(f, 7, PositionEncoding::Utf16), (Position{2, 0}));
  EXPECT_EQ(toPosition(f, 10, PositionEncoding::Utf16), (Position{3, 0}));
  // An offset inside "\r\n" is the end of its line.
  EXPECT_EQ(toPosition(f, 3, PositionEncoding::Utf16), (Position{0, 2}));
  EXPECT_EQ(toOffset(f, {2, 1}, PositionEncoding::Utf16, true).offset, 8u);
}

TEST(Position, CharacterPastTheLineMeansItsEnd) {
  SourceFile f("f.py", "ab\r\ncd");
  OffsetResult r = toOffset(f, {0, 99}, PositionEncoding::Utf16, true);
  EXPECT_EQ(r.error, OffsetError::None);
  EXPECT_EQ(r.offset, 2u); // before the \r\n, never inside it
}

TEST(Position, LinePastTheEnd) {
  SourceFile f("f.py", "ab\n");
  // "ab\n" has two lines, the second empty.
  EXPECT_EQ(toOffset(f, {1, 0}, PositionEncoding::Utf16, true).offset, 3u);
  EXPECT_EQ(toOffset(f, {2, 0}, PositionEncoding::Utf16, true).error,
            OffsetError::LineOutOfRange);
  // Queries clamp to the end of the text.
  OffsetResult lenient = toOffset(f, {7, 3}, PositionEncoding::Utf16, false);
  EXPECT_EQ(lenient.error, OffsetError::None);
  EXPECT_EQ(lenient.offset, 3u);
}

TEST(Position, NeverSplitsACodePoint) {
  SourceFile f("f.py", Mixed);
  // UTF-16 unit 3 is the second half of the emoji's surrogate pair.
  EXPECT_EQ(toOffset(f, {0, 3}, PositionEncoding::Utf16, true).error,
            OffsetError::InsideCodePoint);
  EXPECT_EQ(toOffset(f, {0, 3}, PositionEncoding::Utf16, false).offset, 3u); // rounds down
  // UTF-8 byte 2 is inside the é.
  EXPECT_EQ(toOffset(f, {0, 2}, PositionEncoding::Utf8, true).error,
            OffsetError::InsideCodePoint);
  EXPECT_EQ(toOffset(f, {0, 2}, PositionEncoding::Utf8, false).offset, 1u);
}

TEST(Position, RoundTripsEveryCodePointBoundary) {
  std::string text = std::string("with m.trace():\n  x = '") + Mixed + "'\r\n\t\xE2\x82\xAC\rend";
  SourceFile f("f.py", text);
  for (PositionEncoding e : All)
    for (uint32_t off = 0; off <= text.size(); ++off) {
      bool continuation = off < text.size() && (static_cast<unsigned char>(text[off]) & 0xC0) == 0x80;
      bool insideCrlf = off > 0 && text[off - 1] == '\r' && off < text.size() && text[off] == '\n';
      if (continuation || insideCrlf)
        continue;
      Position p = toPosition(f, off, e);
      OffsetResult back = toOffset(f, p, e, true);
      EXPECT_EQ(back.error, OffsetError::None) << "offset " << off;
      EXPECT_EQ(back.offset, off) << "offset " << off << " encoding " << encodingName(e).str();
    }
}

TEST(Position, Json) {
  llvm::json::Value v = toJSON(Range{{1, 2}, {3, 4}});
  Range r;
  llvm::json::Path::Root root;
  ASSERT_TRUE(fromJSON(v, r, root));
  EXPECT_EQ(r, (Range{{1, 2}, {3, 4}}));
  Position p;
  llvm::json::Path::Root bad;
  EXPECT_FALSE(fromJSON(llvm::json::Object{{"line", -1}, {"character", 0}}, p, bad));
  llvm::consumeError(bad.getError());
}
