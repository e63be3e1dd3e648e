//===- Skeleton.cpp - Python's line structure and binding positions -------===//
#include "Skeleton.h"

#include "ivc/frontend/Unicode.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>

namespace ivc {

namespace {

enum class Tok : uint8_t { Name, Keyword, Op, String, Number };

// The keywords the skeleton looks at; every other hard keyword is `Other`.
enum class Kw : uint8_t {
  None, As, Async, Class, Def, Del, Elif, Else, Except, Finally, For, From, Global, Import, In,
  Nonlocal, With, Other
};

struct Token {
  Tok kind;
  Kw kw;                // Keyword: which
  uint8_t depth;        // open brackets before it, within its logical line (a
                        // replacement field counts as one)
  uint32_t begin, end;
  std::string_view text;
};

struct LogicalLine {
  std::vector<Token> tokens; // never empty
  uint32_t begin = 0, row = 0; // its first physical line
  bool indented = false;
};

bool isIdentByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c >= 0x80;
}

Kw keyword(std::string_view s) {
  struct Entry {
    std::string_view text;
    Kw kw;
  };
  static constexpr Entry keywords[] = {
      {"False", Kw::Other},  {"None", Kw::Other},      {"True", Kw::Other},
      {"and", Kw::Other},    {"as", Kw::As},           {"assert", Kw::Other},
      {"async", Kw::Async},  {"await", Kw::Other},     {"break", Kw::Other},
      {"class", Kw::Class},  {"continue", Kw::Other},  {"def", Kw::Def},
      {"del", Kw::Del},      {"elif", Kw::Elif},       {"else", Kw::Else},
      {"except", Kw::Except}, {"finally", Kw::Finally}, {"for", Kw::For},
      {"from", Kw::From},    {"global", Kw::Global},   {"if", Kw::Other},
      {"import", Kw::Import}, {"in", Kw::In},          {"is", Kw::Other},
      {"lambda", Kw::Other}, {"nonlocal", Kw::Nonlocal}, {"not", Kw::Other},
      {"or", Kw::Other},     {"pass", Kw::Other},      {"raise", Kw::Other},
      {"return", Kw::Other}, {"try", Kw::Other},       {"while", Kw::Other},
      {"with", Kw::With},    {"yield", Kw::Other}};
  // Most names are not keywords: reject them before comparing.
  if (s.size() < 2 || s.size() > 8 || !std::strchr("FNTacdefgilnoprtwy", s[0]))
    return Kw::None;
  for (const Entry &e : keywords)
    if (e.text[0] == s[0] && e.text == s)
      return e.kw;
  return Kw::None;
}

// r, b, u, f, t and their two-letter combinations, in any case.
bool isStringPrefix(std::string_view p) {
  if (p.empty() || p.size() > 2)
    return false;
  for (char c : p)
    if (!std::strchr("rRbBuUfFtT", c))
      return false;
  return p.size() == 1 || std::tolower(p[0]) == 'r' || std::tolower(p[1]) == 'r';
}

bool isFormattedPrefix(std::string_view p) {
  for (char c : p)
    if (std::strchr("fFtT", c))
      return true;
  return false;
}

bool isDunder(std::string_view s) {
  return s.size() > 4 && s.substr(0, 2) == "__" && s.substr(s.size() - 2) == "__";
}

/// Splits text into logical lines of tokens, as Python's tokenizer would,
/// or fails on what it does not follow.
class Lexer {
public:
  Lexer(std::string_view text, uint32_t begin, uint32_t end)
      : s_(text), pos_(begin), end_(end), rowStart_(begin) {}

  bool failed() const { return failed_; }
  /// Where the lexer is: its row, and its byte column in that row.
  uint32_t row() const { return row_; }
  uint32_t column() const { return pos_ - rowStart_; }

  /// The next logical line; false at the end or when the lexer fails.
  bool next(LogicalLine &line) {
    line.tokens.clear();
    while (!failed_ && pos_ < end_) {
      uint32_t lineBegin = pos_;
      while (pos_ < end_ && (s_[pos_] == ' ' || s_[pos_] == '\t'))
        ++pos_;
      if (pos_ < end_ && s_[pos_] == '\f')
        return fail(); // CPython resets the indentation there
      if (pos_ < end_ && s_[pos_] == '\\')
        return fail(); // CPython counts the joined line's indentation too
      if (pos_ >= end_ || s_[pos_] == '#' || s_[pos_] == '\n' || s_[pos_] == '\r') {
        skipComment();
        if (!newline())
          return false;
        continue; // blank or comment-only
      }
      line.begin = lineBegin;
      line.row = row_;
      line.indented = pos_ > lineBegin;
      return tokens(line);
    }
    return false;
  }

private:
  bool fail() {
    failed_ = true;
    return false;
  }

  void skipComment() {
    if (pos_ < end_ && s_[pos_] == '#')
      while (pos_ < end_ && s_[pos_] != '\n' && s_[pos_] != '\r')
        ++pos_;
  }

  // Consumes a line terminator at pos_ (or the end of input).
  bool newline() {
    if (pos_ >= end_)
      return true;
    if (s_[pos_] == '\r') {
      if (pos_ + 1 >= end_ || s_[pos_ + 1] != '\n')
        return fail(); // a lone carriage return
      ++pos_;
    }
    if (s_[pos_] != '\n')
      return fail();
    ++pos_;
    ++row_;
    rowStart_ = pos_;
    return true;
  }

  bool tokens(LogicalLine &line) {
    brackets_.clear();
    while (true) {
      if (pos_ >= end_)
        return brackets_.empty() || fail();
      Layout l = layout();
      if (l == Layout::Failed)
        return false;
      if (l == Layout::LineBreak && brackets_.empty())
        return true;
      if (l == Layout::None && !code(line))
        return false;
    }
  }

  enum class Layout { None, Skipped, LineBreak, Failed };

  // Whitespace, a comment, a line continuation or a line break at pos_,
  // consumed; None when pos_ holds code.
  Layout layout() {
    char c = s_[pos_];
    if (c == ' ' || c == '\t' || c == '\f') {
      ++pos_;
      return Layout::Skipped;
    }
    if (c == '#') {
      skipComment();
      return Layout::Skipped;
    }
    if (c == '\\') { // outside a string, a backslash only joins lines
      ++pos_;
      bool joins = pos_ < end_ && (s_[pos_] == '\n' || s_[pos_] == '\r');
      if (!joins)
        fail();
      return joins && newline() ? Layout::Skipped : Layout::Failed;
    }
    if (c == '\n' || c == '\r')
      return newline() ? Layout::LineBreak : Layout::Failed;
    return Layout::None;
  }

  // One token of code at pos_: a string, a bracket, a name, a number or an
  // operator.
  bool code(LogicalLine &line) {
    unsigned char c = static_cast<unsigned char>(s_[pos_]);
    switch (c) {
    case '\0':
      return fail();
    case '"':
    case '\'':
      return string(line, pos_, pos_);
    case '(':
    case '[':
    case '{':
      push(line, Tok::Op, pos_, pos_ + 1);
      brackets_.push_back(char(c));
      ++pos_;
      return true;
    case ')':
    case ']':
    case '}': {
      char open = c == ')' ? '(' : c == ']' ? '[' : '{';
      if (brackets_.empty() || brackets_.back() != open)
        return fail();
      brackets_.pop_back();
      push(line, Tok::Op, pos_, pos_ + 1);
      ++pos_;
      return true;
    }
    default:
      break;
    }
    if ((c >= '0' && c <= '9') ||
        (c == '.' && pos_ + 1 < end_ && s_[pos_ + 1] >= '0' && s_[pos_ + 1] <= '9')) {
      number(line);
    } else if (isIdentByte(c)) {
      uint32_t b = pos_;
      while (pos_ < end_ && isIdentByte(static_cast<unsigned char>(s_[pos_])))
        ++pos_;
      std::string_view word = s_.substr(b, pos_ - b);
      if (pos_ < end_ && (s_[pos_] == '"' || s_[pos_] == '\'') && isStringPrefix(word))
        return string(line, b, pos_);
      Kw kw = keyword(word);
      push(line, kw == Kw::None ? Tok::Name : Tok::Keyword, b, pos_, kw);
    } else {
      op(line);
    }
    return true;
  }

  void push(LogicalLine &line, Tok kind, uint32_t b, uint32_t e, Kw kw = Kw::None) {
    Token t;
    t.kind = kind;
    t.kw = kw;
    t.depth = uint8_t(std::min<size_t>(brackets_.size(), 255));
    t.begin = b;
    t.end = e;
    t.text = s_.substr(b, e - b);
    line.tokens.push_back(t);
  }

  // A number as CPython's tokenizer reads one, so that `1else-len(x)` ends
  // it before `else`: digits and underscores, a fraction, an exponent, a `j`;
  // or 0x/0o/0b and hex digits.
  void number(LogicalLine &line) {
    uint32_t b = pos_;
    auto at = [&](uint32_t i) { return i < end_ ? s_[i] : '\0'; };
    auto digits = [&](bool hex) {
      while (std::isdigit(static_cast<unsigned char>(at(pos_))) || at(pos_) == '_' ||
             (hex && std::isxdigit(static_cast<unsigned char>(at(pos_)))))
        ++pos_;
    };
    if (at(pos_) == '0' && at(pos_ + 1) && std::strchr("xXoObB", at(pos_ + 1))) {
      pos_ += 2;
      digits(true);
    } else {
      digits(false);
      if (at(pos_) == '.') {
        ++pos_;
        digits(false);
      }
      char sign = at(pos_ + 1);
      uint32_t exponentDigit = pos_ + ((sign == '+' || sign == '-') ? 2 : 1);
      bool exponent = (at(pos_) == 'e' || at(pos_) == 'E') &&
                      std::isdigit(static_cast<unsigned char>(at(exponentDigit)));
      if (exponent) {
        pos_ = exponentDigit;
        digits(false);
      }
      if (at(pos_) == 'j' || at(pos_) == 'J')
        ++pos_;
    }
    push(line, Tok::Number, b, pos_);
  }

  // A string literal whose prefix starts at `b` and quote is at `quote`. The
  // code in an f-string's replacement fields is lexed as code (Python 3.12's
  // rules: its strings may use any quotes); its tokens come before the
  // string's own.
  bool string(LogicalLine &line, uint32_t b, uint32_t quote) {
    std::string_view prefix = s_.substr(b, quote - b);
    bool formatted = isFormattedPrefix(prefix);
    bool raw = prefix.find_first_of("rR") != std::string_view::npos;
    char q = s_[quote];
    bool triple = quote + 2 < end_ && s_[quote + 1] == q && s_[quote + 2] == q;
    pos_ = quote + (triple ? 3 : 1);
    while (true) {
      if (pos_ >= end_)
        return fail(); // unterminated
      char c = s_[pos_];
      if (c == '\\') {
        if (!escape(formatted, raw))
          return false;
      } else if (c == '\n' || c == '\r') {
        if (!triple || !newline())
          return fail(); // unterminated
      } else if (c == '\0') {
        return fail();
      } else if (isClosing(q, triple)) {
        pos_ += triple ? 3 : 1;
        push(line, Tok::String, b, pos_);
        return true;
      } else if (formatted && (c == '{' || c == '}')) {
        if (pos_ + 1 < end_ && s_[pos_ + 1] == c) {
          pos_ += 2; // `{{` or `}}`: a brace of the text
        } else if (c == '}') {
          return fail(); // a single '}' is not allowed
        } else {
          ++pos_;
          if (!field(line, q, triple))
            return false;
        }
      } else {
        ++pos_;
      }
    }
  }

  bool isClosing(char q, bool triple) const {
    return s_[pos_] == q &&
           (!triple || (pos_ + 2 < end_ && s_[pos_ + 1] == q && s_[pos_ + 2] == q));
  }

  // A backslash in a string's text, at pos_: it keeps the next character from
  // ending the string, except that in an f-string a brace after it still
  // opens or closes a field, and `\N{...}` names a character.
  bool escape(bool formatted, bool raw) {
    ++pos_;
    if (pos_ >= end_)
      return fail();
    char c = s_[pos_];
    if (c == '\n' || c == '\r')
      return newline();
    if (formatted && (c == '{' || c == '}'))
      return true;
    if (formatted && !raw && c == 'N' && pos_ + 1 < end_ && s_[pos_ + 1] == '{') {
      while (pos_ < end_ && s_[pos_] != '}' && s_[pos_] != '\n')
        ++pos_;
    }
    ++pos_;
    return true;
  }

  // A replacement field's code, after its `{`, through its `}`: a conversion
  // (`!r`) and a format spec after a `:`, whose text may hold fields too.
  bool field(LogicalLine &line, char q, bool triple) {
    brackets_.push_back('f');
    size_t level = brackets_.size();
    while (true) {
      if (pos_ >= end_)
        return fail();
      Layout l = layout();
      if (l == Layout::Failed)
        return false;
      if (l != Layout::None)
        continue;
      char c = s_[pos_];
      bool top = brackets_.size() == level;
      if (top && c == '}') {
        brackets_.pop_back();
        ++pos_;
        return true;
      } else if (top && c == ':') {
        // `{x:=10}` is x formatted with `=10`; tree-sitter reads a `:=`
        // there, so it counts as one: bindings are over-approximated.
        if (pos_ + 1 < end_ && s_[pos_ + 1] == '=')
          push(line, Tok::Op, pos_, pos_ + 2);
        ++pos_;
        return formatSpec(line, q, triple);
      } else if (top && c == '!' && pos_ + 1 < end_ && s_[pos_ + 1] != '=') {
        ++pos_; // a conversion: its letter is lexed as a name
      } else if (!code(line)) {
        return false;
      }
    }
  }

  // A format spec, after the field's `:`, through the field's `}`. Its words
  // count as names read: tree-sitter reads `{h:=len}` as code.
  bool formatSpec(LogicalLine &line, char q, bool triple) {
    while (true) {
      if (pos_ >= end_ || s_[pos_] == '\0' || isClosing(q, triple))
        return fail();
      char c = s_[pos_];
      if (c == '}') {
        brackets_.pop_back();
        ++pos_;
        return true;
      }
      if (c == '{') {
        ++pos_;
        if (!field(line, q, triple))
          return false;
      } else if (c == '\\') {
        if (!escape(true, false))
          return false;
      } else if (c == '\n' || c == '\r') {
        if (!triple || !newline())
          return fail();
      } else if (isIdentByte(static_cast<unsigned char>(c)) && !std::isdigit(c)) {
        uint32_t b = pos_;
        while (pos_ < end_ && isIdentByte(static_cast<unsigned char>(s_[pos_])))
          ++pos_;
        push(line, Tok::Name, b, pos_);
      } else {
        ++pos_;
      }
    }
  }

  // An operator: `**=`, `//=`, `>>=`, `<<=` and `...`; two characters ending
  // in `=`, `->`, `**`, `//`, `<<`, `>>`; else one character.
  void op(LogicalLine &line) {
    uint32_t b = pos_;
    char c = s_[pos_];
    char c1 = pos_ + 1 < end_ ? s_[pos_ + 1] : '\0';
    char c2 = pos_ + 2 < end_ ? s_[pos_ + 2] : '\0';
    size_t n = 1;
    if ((c == c1 && std::strchr("*/<>", c) && c2 == '=') || (c == '.' && c1 == '.' && c2 == '.'))
      n = 3;
    else if ((c1 == '=' && std::strchr("=!<>:+-*/%&|^@", c)) || (c == '-' && c1 == '>') ||
             (c == c1 && std::strchr("*/<>", c)))
      n = 2;
    pos_ += uint32_t(n);
    push(line, Tok::Op, b, pos_);
  }

  std::string_view s_;
  uint32_t pos_, end_;
  uint32_t row_ = 0, rowStart_;
  bool failed_ = false;
  std::vector<char> brackets_;
};

bool isAssignment(const Token &t) {
  if (t.kind != Tok::Op || t.depth != 0)
    return false;
  std::string_view o = t.text;
  if (o == "=")
    return true;
  return o.size() >= 2 && o.back() == '=' && o != "==" && o != "!=" && o != "<=" && o != ">=" &&
         o != ":=";
}

bool isKeyword(const Token &t, Kw k) { return t.kw == k; }
bool isOp(const Token &t, std::string_view o) { return t.kind == Tok::Op && t.text == o; }

/// Collects one statement's bindings and trace markers, line by line.
class StatementScanner {
public:
  StatementScanner(SkeletonStatement &s, llvm::ArrayRef<std::string> traceMethods, bool definition)
      : s_(s), traceMethods_(traceMethods), definition_(definition) {}

  void line(const std::vector<Token> &tokens) {
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Token &t = tokens[i];
      if (isKeyword(t, Kw::With))
        sawWith_ = true;
      else if (t.kind == Tok::Name && i > 0 && isOp(tokens[i - 1], ".") && isTraceMethod(t.text))
        sawTraceMethod_ = true;
    }
    s_.holdsTrace = sawWith_ && sawTraceMethod_;
    // Simple statements, split at `;`.
    size_t from = 0;
    for (size_t i = 0; i <= tokens.size(); ++i)
      if (i == tokens.size() || (isOp(tokens[i], ";") && tokens[i].depth == 0)) {
        segment(llvm::ArrayRef<Token>(tokens).slice(from, i - from));
        from = i + 1;
      }
  }

private:
  bool isTraceMethod(std::string_view name) const {
    std::string normalized = isAscii(name) ? std::string() : normalizeIdentifier(name);
    std::string_view n = normalized.empty() ? name : normalized; // `model.ｔrace`
    for (const std::string &m : traceMethods_)
      if (m == n)
        return true;
    return false;
  }

  void bind(const Token &t) {
    if (t.kind == Tok::Name)
      bind(nameHash(t.text), t.text);
  }

  void bind(uint64_t hash, std::string_view name) {
    if (isDunder(name) || isDunder(normalizeIdentifier(name)))
      s_.alwaysParse = true; // `__builtins__ = ...`, module `__getattr__`, ...
    if (bound_.insert(hash).second) // (`a0, a1, ..., a99999 = xs`: no linear search)
      s_.binds.push_back(hash);
  }

  // Names after `t[i]` up to the end, or (with `until`) to that keyword at
  // t[i]'s depth: `for a[k in d], x in pairs` binds x.
  void bindFollowing(llvm::ArrayRef<Token> t, size_t i, Kw until = Kw::None) {
    for (size_t j = i + 1; j < t.size(); ++j) {
      if (until != Kw::None && isKeyword(t[j], until) && t[j].depth == t[i].depth)
        return;
      bind(t[j]);
    }
  }

  void segment(llvm::ArrayRef<Token> t) {
    if (t.empty())
      return;
    if (definition_) {
      // A definition binds its name, what it declares global, and what a
      // `:=` in a decorator or a default value binds.
      for (size_t i = 0; i < t.size(); ++i) {
        bool header = isKeyword(t[i], Kw::Def) || isKeyword(t[i], Kw::Class);
        if (header && !named_ && i + 1 < t.size()) {
          named_ = true;
          bind(t[i + 1]);
        } else if (isKeyword(t[i], Kw::Global)) {
          bindFollowing(t, i);
        } else if (isOp(t[i], ":=") && i > 0) {
          bind(t[i - 1]);
        }
      }
      return;
    }
    if (t[0].kind == Tok::Name && t[0].text == "case")
      bindFollowing(t, 0); // a case's capture patterns (and then, `case = eval`)
    if (t.size() >= 2 && t[0].kind == Tok::Name && isOp(t[1], ":"))
      bind(t[0]); // an annotated name
    if (isKeyword(t[0], Kw::From) && t.size() >= 2 && t[1].text == "__future__")
      s_.futureImport = true;
    size_t lastAssignment = 0;
    for (size_t i = 0; i < t.size(); ++i) {
      const Token &k = t[i];
      if (isAssignment(k)) {
        lastAssignment = i;
      } else if (isOp(k, ":=") && i > 0) {
        bind(t[i - 1]);
      } else if (isKeyword(k, Kw::Import)) {
        for (size_t j = i + 1; j < t.size(); ++j) {
          if (isOp(t[j], "*"))
            s_.alwaysParse = true; // a star import binds names we cannot see
          else if (!isOp(t[j - 1], "."))
            bind(t[j]);
        }
      } else if (isKeyword(k, Kw::Global) || isKeyword(k, Kw::Nonlocal) || isKeyword(k, Kw::Del)) {
        bindFollowing(t, i);
      } else if (isKeyword(k, Kw::For)) {
        bindFollowing(t, i, Kw::In);
      } else if (isKeyword(k, Kw::Def) || isKeyword(k, Kw::Class)) {
        if (i + 1 < t.size())
          bind(t[i + 1]);
      } else if (isKeyword(k, Kw::As) && i + 1 < t.size()) {
        // `as name`, or `as (a, b)` in a with item.
        bind(t[i + 1]);
        if (isOp(t[i + 1], "(") || isOp(t[i + 1], "["))
          for (size_t j = i + 2; j < t.size() && t[j].depth > k.depth; ++j)
            bind(t[j]);
      }
    }
    for (size_t i = 0; i < lastAssignment; ++i)
      bind(t[i]);
  }

  SkeletonStatement &s_;
  llvm::DenseSet<uint64_t> bound_; // s_.binds, to look up
  llvm::ArrayRef<std::string> traceMethods_;
  bool definition_;
  bool named_ = false;
  bool sawWith_ = false, sawTraceMethod_ = false;
};

void endAt(SkeletonStatement &s, uint32_t offset, uint32_t row, uint32_t column) {
  s.end = offset;
  s.endRow = row;
  s.endColumn = column;
}

bool startsDefinition(const std::vector<Token> &t) {
  if (t.empty())
    return false;
  if (isOp(t[0], "@") || isKeyword(t[0], Kw::Def) || isKeyword(t[0], Kw::Class))
    return true;
  return isKeyword(t[0], Kw::Async) && t.size() > 1 && isKeyword(t[1], Kw::Def);
}

bool continuesCompound(const std::vector<Token> &t) {
  return !t.empty() && (isKeyword(t[0], Kw::Else) || isKeyword(t[0], Kw::Elif) ||
                        isKeyword(t[0], Kw::Except) || isKeyword(t[0], Kw::Finally));
}

} // namespace

uint64_t nameHash(std::string_view identifier) {
  uint64_t h = isAscii(identifier)
                   ? llvm::xxHash64(llvm::StringRef(identifier.data(), identifier.size()))
                   : llvm::xxHash64(normalizeIdentifier(identifier));
  return h >> 1; // DenseMap reserves the two largest keys
}

Skeleton scanSkeleton(std::string_view text, llvm::ArrayRef<std::string> traceMethods) {
  Skeleton sk;
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    return sk; // a byte-order mark: the first line does not start at column 0
  Lexer lexer(text, 0, uint32_t(text.size()));
  LogicalLine line;
  std::optional<StatementScanner> scanner;
  bool decoratorsOnly = false; // the statement so far is decorators
  while (lexer.next(line)) {
    if (line.tokens.empty())
      return sk; // a logical line always starts with a token; never trust it blindly
    bool continues = !sk.statements.empty() &&
                     (line.indented || continuesCompound(line.tokens) || decoratorsOnly);
    if (!continues) {
      if (line.indented)
        return sk; // an indented first line
      if (!sk.statements.empty())
        endAt(sk.statements.back(), line.begin, line.row, 0);
      SkeletonStatement &s = sk.statements.emplace_back();
      s.begin = line.begin;
      s.row = line.row;
      scanner.emplace(s, traceMethods, startsDefinition(line.tokens));
    }
    if (!line.indented)
      decoratorsOnly = !line.tokens.empty() && isOp(line.tokens[0], "@");
    scanner->line(line.tokens);
    sk.statements.back().codeEnd = line.tokens.back().end;
  }
  if (!sk.statements.empty())
    endAt(sk.statements.back(), uint32_t(text.size()), lexer.row(), lexer.column());
  sk.complete = !lexer.failed();
  return sk;
}

size_t futureImportPrefix(const Skeleton &sk) {
  size_t prefix = 0;
  for (size_t i = 0; i < sk.statements.size(); ++i)
    if (sk.statements[i].futureImport)
      prefix = i + 1;
  return prefix;
}

void namesSpelled(std::string_view text, const SkeletonStatement &s, std::vector<uint64_t> &out) {
  Lexer lexer(text, s.begin, s.end);
  LogicalLine line;
  while (lexer.next(line))
    for (const Token &t : line.tokens)
      if (t.kind == Tok::Name)
        out.push_back(nameHash(t.text));
}

} // namespace ivc
