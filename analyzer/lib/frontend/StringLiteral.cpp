//===- StringLiteral.cpp --------------------------------------------------===//
#include "ivc/frontend/StringLiteral.h"

#include "ivc/frontend/Unicode.h"

#include "llvm/Support/Unicode.h"

#include <cctype>

namespace ivc {

StringPrefix parseStringPrefix(std::string_view start) {
  StringPrefix p;
  size_t i = 0;
  bool unicode = false;
  for (; i < start.size() && start[i] != '\'' && start[i] != '"'; ++i) {
    switch (std::tolower(static_cast<unsigned char>(start[i]))) {
    case 'r': p.valid &= !p.raw; p.raw = true; break;
    case 'b': p.valid &= !p.bytes; p.bytes = true; break;
    case 'f': p.valid &= !p.format; p.format = true; break;
    case 'u': p.valid &= !unicode; unicode = true; break;
    default: p.valid = false; break;
    }
  }
  // u combines with nothing; bytes cannot be formatted.
  if ((unicode && (p.raw || p.bytes || p.format)) || (p.bytes && p.format))
    p.valid = false;
  p.prefixLength = uint32_t(i);
  size_t quotes = start.size() - i;
  p.quoteLength = quotes >= 3 ? 3 : 1;
  return p;
}

namespace {

// The code point of a Unicode name alias (`LINE FEED`, `BOM`), upper case.
// The list is Debian's unicode-data (NameAliases.txt): lines `CODE;NAME;TYPE`.
std::optional<char32_t> nameAlias(std::string_view name) {
  static constexpr std::string_view aliases =
#include "NameAliases.inc"
      ;
  for (size_t at = 0; at < aliases.size();) {
    size_t end = aliases.find('\n', at);
    std::string_view line = aliases.substr(at, end == std::string_view::npos ? end : end - at);
    at = end == std::string_view::npos ? aliases.size() : end + 1;
    size_t first = line.find(';'), second = line.find(';', first + 1);
    if (line.empty() || line[0] == '#' || second == std::string_view::npos)
      continue;
    if (line.substr(first + 1, second - first - 1) == name)
      return char32_t(std::stoul(std::string(line.substr(0, first)), nullptr, 16));
  }
  return std::nullopt;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

class Decoder {
public:
  Decoder(std::string_view body, bool raw, LiteralKind kind, std::vector<StringDecodeError> *errors)
      : s(body), raw(raw), kind(kind), errors(errors) {}

  std::string run() {
    out.reserve(s.size());
    for (size_t i = 0; i < s.size();) {
      char c = s[i];
      if (c == '\r') { // universal newlines, as CPython reads source
        out += '\n';
        i += (i + 1 < s.size() && s[i + 1] == '\n') ? 2 : 1;
      } else if (kind == LiteralKind::FormatLiteralPart && (c == '{' || c == '}') &&
                 i + 1 < s.size() && s[i + 1] == c) {
        out += c;
        i += 2;
      } else if (c == '\\' && !raw && i + 1 < s.size()) {
        i = escape(i);
      } else if (kind == LiteralKind::Bytes && static_cast<unsigned char>(c) >= 0x80) {
        error(i, 1, "bytes can only contain ASCII literal characters");
        out += c;
        ++i;
      } else {
        out += c;
        ++i;
      }
    }
    return std::move(out);
  }

private:
  void error(size_t at, size_t len, std::string msg) {
    if (errors)
      errors->push_back({uint32_t(at), uint32_t(len), std::move(msg)});
  }

  void codePoint(char32_t cp) {
    if (kind == LiteralKind::Bytes)
      out += char(cp & 0xFF);
    else
      appendUtf8(out, cp);
  }

  // Decodes the escape at s[i] == '\\'; returns the index after it.
  size_t escape(size_t i) {
    char e = s[i + 1];
    switch (e) {
    case '\n': return i + 2;
    case '\r': return i + ((i + 2 < s.size() && s[i + 2] == '\n') ? 3 : 2);
    case '\\': out += '\\'; return i + 2;
    case '\'': out += '\''; return i + 2;
    case '"': out += '"'; return i + 2;
    case 'a': out += '\a'; return i + 2;
    case 'b': out += '\b'; return i + 2;
    case 'f': out += '\f'; return i + 2;
    case 'n': out += '\n'; return i + 2;
    case 'r': out += '\r'; return i + 2;
    case 't': out += '\t'; return i + 2;
    case 'v': out += '\v'; return i + 2;
    case 'x': return hexEscape(i, 2, "\\xXX");
    default: break;
    }
    if (e >= '0' && e <= '7') {
      size_t j = i + 1;
      uint32_t v = 0;
      for (int k = 0; k < 3 && j < s.size() && s[j] >= '0' && s[j] <= '7'; ++k, ++j)
        v = v * 8 + uint32_t(s[j] - '0');
      codePoint(v);
      return j;
    }
    if (kind != LiteralKind::Bytes) {
      if (e == 'u')
        return hexEscape(i, 4, "\\uXXXX");
      if (e == 'U')
        return hexEscape(i, 8, "\\UXXXXXXXX");
      if (e == 'N')
        return namedEscape(i);
    }
    // Unknown escapes keep their backslash (CPython warns, then does the same).
    out += '\\';
    return i + 1;
  }

  size_t hexEscape(size_t i, int digits, const char *form) {
    size_t j = i + 2;
    char32_t v = 0;
    int k = 0;
    for (; k < digits && j < s.size() && hexValue(s[j]) >= 0; ++k, ++j)
      v = v * 16 + char32_t(hexValue(s[j]));
    if (k < digits) {
      error(i, j - i, std::string("truncated ") + form + " escape");
      return j;
    }
    if (v > 0x10FFFF) {
      error(i, j - i, "illegal Unicode character");
      return j;
    }
    codePoint(v);
    return j;
  }

  size_t namedEscape(size_t i) {
    size_t open = i + 2;
    size_t close = s.find('}', open);
    if (open >= s.size() || s[open] != '{' || close == std::string_view::npos) {
      error(i, 2, "malformed \\N character escape");
      return i + 2;
    }
    std::string_view name = s.substr(open + 1, close - open - 1);
    // CPython's lookup takes a name or an alias exactly, in any case, but
    // the generated names of Hangul syllables and CJK ideographs in upper
    // case only. LLVM's strict lookup takes upper-case names and their
    // corrections; Unicode's alias list adds control names and abbreviations.
    std::string upper(name);
    for (char &c : upper)
      c = char(std::toupper(static_cast<unsigned char>(c)));
    bool generated = llvm::StringRef(upper).starts_with("HANGUL SYLLABLE ") ||
                     llvm::StringRef(upper).starts_with("CJK UNIFIED IDEOGRAPH-");
    std::optional<char32_t> cp =
        llvm::sys::unicode::nameToCodepointStrict(generated ? std::string(name) : upper);
    if (!cp && !generated)
      cp = nameAlias(upper);
    if (!cp) {
      error(i, close + 1 - i, "unknown Unicode character name");
      return close + 1;
    }
    codePoint(*cp);
    return close + 1;
  }

  std::string_view s;
  bool raw;
  LiteralKind kind;
  std::vector<StringDecodeError> *errors;
  std::string out;
};

} // namespace

std::string decodeStringBody(std::string_view body, bool raw, LiteralKind kind,
                             std::vector<StringDecodeError> *errors) {
  return Decoder(body, raw, kind, errors).run();
}

} // namespace ivc
