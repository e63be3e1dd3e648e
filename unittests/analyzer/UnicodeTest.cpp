#include "ivc/frontend/SourceFile.h"
#include "ivc/frontend/Unicode.h"

#include <gtest/gtest.h>

using namespace ivc;

TEST(Nfkc, AsciiUnchanged) { EXPECT_EQ(normalizeIdentifier("model_h5"), "model_h5"); }

TEST(Nfkc, FullwidthAndMathLetters) {
  EXPECT_EQ(normalizeIdentifier("\xEF\xBD\x85val"), "eval");                   // ｅval
  EXPECT_EQ(normalizeIdentifier("__\xF0\x9D\x92\xB8lass__"), "__class__");      // __𝒸lass__
  EXPECT_EQ(normalizeIdentifier("\xE2\x84\x8C"), "H");                          // ℌ
  EXPECT_EQ(normalizeIdentifier("\xEF\xAC\x81le"), "file");                     // ﬁle (ligature)
}

TEST(Nfkc, ComposesCombiningMarks) {
  EXPECT_EQ(normalizeIdentifier("e\xCC\x81"), "\xC3\xA9"); // e + U+0301 -> é
}

TEST(Utf16, Lengths) {
  EXPECT_EQ(utf16Length("abc"), 3u);
  EXPECT_EQ(utf16Length("\xC3\xA9"), 1u);          // é
  EXPECT_EQ(utf16Length("\xF0\x9F\x98\x80"), 2u);  // U+1F600: a surrogate pair
  EXPECT_EQ(codePointLength("\xF0\x9F\x98\x80x"), 2u);
  EXPECT_EQ(byteOffsetOfUtf16("\xC3\xA9" "ab", 2), 3u);
  EXPECT_EQ(byteOffsetOfUtf16("\xF0\x9F\x98\x80" "a", 1), 0u); // inside the pair: stays before it
  EXPECT_EQ(byteOffsetOfUtf16("ab", 10), 2u);
}

TEST(SourceFile, LineTable) {
  SourceFile f("t.py", "a = 1\r\nbb\rccc\n\nlast");
  ASSERT_EQ(f.lineCount(), 5u);
  EXPECT_EQ(f.lineText(0), "a = 1");
  EXPECT_EQ(f.lineText(1), "bb");
  EXPECT_EQ(f.lineText(2), "ccc");
  EXPECT_EQ(f.lineText(3), "");
  EXPECT_EQ(f.lineText(4), "last");
  SourcePos p = f.position(8); // second 'b'
  EXPECT_EQ(p.line, 1u);
  EXPECT_EQ(p.column, 1u);
  EXPECT_EQ(f.offsetOf(2, 1), 11u);
  EXPECT_EQ(f.offsetOf(2, 99), 13u); // clamped to the line's end
  EXPECT_EQ(f.position(1000).offset, f.text().size());
}

TEST(SourceFile, ColumnUnits) {
  SourceFile f("t.py", "s = \"\xC3\xA9\xF0\x9F\x98\x80\" + x\n");
  // byte column of `+`: 5 (s = ") + 2 (é) + 4 (emoji) + 2 (" ) = 13
  EXPECT_EQ(f.lineText(0)[13], '+');
  EXPECT_EQ(f.utf16Column(0, 13), 10u);
  EXPECT_EQ(f.codePointColumn(0, 13), 9u);
  EXPECT_EQ(f.byteColumnFromUtf16(0, 10), 13u);
}
