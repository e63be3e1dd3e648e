#include "ivc/frontend/StringLiteral.h"

#include <gtest/gtest.h>

using namespace ivc;

namespace {
std::string str(std::string_view body, std::vector<StringDecodeError> *errors = nullptr) {
  return decodeStringBody(body, false, LiteralKind::Str, errors);
}
} // namespace

TEST(StringLiteral, SimpleEscapes) {
  EXPECT_EQ(str(R"(a\nb\tc\\d\'e\"f)"), "a\nb\tc\\d'e\"f");
  EXPECT_EQ(str(R"(\a\b\f\v\r)"), "\a\b\f\v\r");
}

TEST(StringLiteral, OctalAndHex) {
  EXPECT_EQ(str(R"(\101\x42\0)"), std::string("AB\0", 3));
  EXPECT_EQ(str(R"(\1234)"), "S4"); // at most three octal digits
}

TEST(StringLiteral, UnicodeEscapes) {
  EXPECT_EQ(str(R"(\u00e9\U0001F600)"), "\xC3\xA9\xF0\x9F\x98\x80");
  EXPECT_EQ(str(R"(\N{LATIN SMALL LETTER E WITH ACUTE})"), "\xC3\xA9");
  EXPECT_EQ(str(R"(\N{latin small letter e with acute})"), "\xC3\xA9"); // case-insensitive, as CPython
}

TEST(StringLiteral, NameAliases) {
  // Control names and abbreviations, which LLVM's name tables lack.
  EXPECT_EQ(str(R"(\N{LINE FEED}\N{lf}\N{NULL})"), std::string("\n\n\0", 3));
  EXPECT_EQ(str(R"(\N{BOM}\N{nbsp}\N{ZWJ})"), "\xEF\xBB\xBF\xC2\xA0\xE2\x80\x8D");
  EXPECT_EQ(str(R"(\N{LOW LINE}\N{LOW LINE}\N{DEL}_)"), "__\x7F_");
  std::vector<StringDecodeError> errors;
  str(R"(\N{ZWJJ}\N{LINE})", &errors);
  EXPECT_EQ(errors.size(), 2u);
}

TEST(StringLiteral, NamesMatchExactlyAsCPythonMatchesThem) {
  // Generated names in upper case only; others in any case, but spelled out.
  EXPECT_EQ(str(R"(\N{HANGUL SYLLABLE GA}\N{CJK UNIFIED IDEOGRAPH-4E00})"),
            "\xEA\xB0\x80\xE4\xB8\x80");
  EXPECT_EQ(str(R"(\N{modifier letter extra-high tone bar})"), "\xCB\xA5");
  for (const char *wrong : {R"(\N{hangul syllable ga})", R"(\N{CJK UNIFIED IDEOGRAPH-4e00})",
                            R"(\N{BOM B})", R"(\N{line  feed})", R"(\N{LATIN-SMALL-LETTER-A})"}) {
    std::vector<StringDecodeError> errors;
    str(wrong, &errors);
    EXPECT_EQ(errors.size(), 1u) << wrong;
  }
}

TEST(StringLiteral, DunderSpelledWithEscapes) {
  // The analyzer must see through escapes: these all spell "__class__".
  EXPECT_EQ(str(R"(\x5f\x5fclass\x5f\x5f)"), "__class__");
  EXPECT_EQ(str(R"(\137\137class__)"), "__class__");
  EXPECT_EQ(str(R"(\N{LOW LINE}_class__)"), "__class__");
}

TEST(StringLiteral, UnknownEscapeKeepsBackslash) { EXPECT_EQ(str(R"(\d\q)"), R"(\d\q)"); }

TEST(StringLiteral, LineContinuationAndNewlines) {
  EXPECT_EQ(str("a\\\nb"), "ab");
  EXPECT_EQ(str("a\r\nb\rc"), "a\nb\nc");
}

TEST(StringLiteral, Raw) {
  EXPECT_EQ(decodeStringBody(R"(\n\x41\\)", true, LiteralKind::Str), R"(\n\x41\\)");
}

TEST(StringLiteral, Bytes) {
  EXPECT_EQ(decodeStringBody(R"(\x00\xff\u1234)", false, LiteralKind::Bytes),
            std::string("\0\xff\\u1234", 8));
  std::vector<StringDecodeError> errors;
  decodeStringBody("caf\xC3\xA9", false, LiteralKind::Bytes, &errors);
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0].message, "bytes can only contain ASCII literal characters");
}

TEST(StringLiteral, FormatLiteralBraces) {
  EXPECT_EQ(decodeStringBody("{{x}}", false, LiteralKind::FormatLiteralPart), "{x}");
  EXPECT_EQ(decodeStringBody("{{x}}", false, LiteralKind::Str), "{{x}}");
}

TEST(StringLiteral, Errors) {
  std::vector<StringDecodeError> errors;
  str(R"(\x4)", &errors);
  str(R"(\U00110000)", &errors);
  str(R"(\N{NO SUCH CHARACTER NAME})", &errors);
  str(R"(\N)", &errors);
  ASSERT_EQ(errors.size(), 4u);
  EXPECT_EQ(errors[0].message, "truncated \\xXX escape");
  EXPECT_EQ(errors[1].message, "illegal Unicode character");
  EXPECT_EQ(errors[2].message, "unknown Unicode character name");
  EXPECT_EQ(errors[3].message, "malformed \\N character escape");
}

TEST(StringPrefix, Parse) {
  StringPrefix p = parseStringPrefix("Rb'''");
  EXPECT_TRUE(p.valid && p.raw && p.bytes && !p.format);
  EXPECT_EQ(p.prefixLength, 2u);
  EXPECT_EQ(p.quoteLength, 3u);
  EXPECT_TRUE(parseStringPrefix("fR\"").format);
  EXPECT_FALSE(parseStringPrefix("bf'").valid);
  EXPECT_FALSE(parseStringPrefix("ur'").valid);
  EXPECT_FALSE(parseStringPrefix("rr'").valid);
}
