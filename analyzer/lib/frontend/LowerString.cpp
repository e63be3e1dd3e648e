//===- LowerString.cpp - Lowering of string, bytes and f-string literals ---===//
//
// Plain literals (and implicit concatenations of them) lower to one `str` or
// `bytes` op holding the decoded value. A literal with any f-string part lowers
// to an `fstring` op whose parts are `str` ops for the literal text and
// `format` ops for the replacement fields, in order.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include "ivc/frontend/StringLiteral.h"

namespace ivc {

using namespace ir;

namespace {

struct StringBuilder {
  explicit StringBuilder(Lowering &L) : L(L) {}
  Lowering &L;
  llvm::SmallVector<Op *, 8> parts; // for f-strings
  std::string pending;              // literal text not yet emitted as a part
  SourceRange pendingRange{};
  bool hasPending = false;

  void addLiteral(std::string_view decoded, SourceRange r) {
    if (!hasPending) {
      pendingRange = r;
      hasPending = true;
    } else {
      pendingRange.end = r.end;
    }
    pending += decoded;
  }
  void flush() {
    if (!hasPending)
      return;
    parts.push_back(L.emit(OpKind::Str, pendingRange, {}, L.module_.save(pending)));
    pending.clear();
    hasPending = false;
  }
};

} // namespace

// Decodes `body` (a piece of a literal) and reports escape errors at their place.
static std::string decodePiece(Lowering &L, std::string_view body, uint32_t bodyOffset, bool raw,
                               LiteralKind kind) {
  std::vector<StringDecodeError> errors;
  std::string value = decodeStringBody(body, raw, kind, &errors);
  for (const StringDecodeError &e : errors) {
    SourcePos b = L.source_.position(bodyOffset + e.offset);
    SourcePos end = L.source_.position(bodyOffset + e.offset + e.length);
    L.error(DiagId::InvalidStringLiteral, {b, end}, {e.message});
  }
  return value;
}

// Lowers the format spec after ':' in a replacement field to an fstring op.
static Op *formatSpec(Lowering &L, TSNode spec, bool raw);

TSNode misreadWalrus(TSNode field) {
  const Grammar &g = Grammar::python();
  Sym fs = g.sym(field);
  if (fs != Sym::interpolation && fs != Sym::format_expression)
    return TSNode{};
  for (uint32_t i = 0, count = ts_node_child_count(field); i < count; ++i) {
    TSNode c = ts_node_child(field, i);
    if (g.sym(c) == Sym::type_conversion || g.sym(c) == Sym::format_specifier ||
        (!ts_node_is_named(c) && std::string_view(ts_node_type(c)) == "="))
      return TSNode{};
  }
  TSNode e = ts_node_named_child(field, 0); // the expression, or a list it starts
  if (!ts_node_is_null(e) && g.sym(e) == Sym::expression_list)
    e = ts_node_named_child(e, 0);
  return !ts_node_is_null(e) && g.sym(e) == Sym::named_expression ? e : TSNode{};
}

// The field of a misread walrus, as Python reads it.
static Op *formatWithEqualsSpec(Lowering &L, TSNode field, TSNode expression, TSNode walrus,
                                bool raw) {
  Lowering::Children cs;
  L.children(walrus, cs);
  TSNode name = Lowering::fieldChild(cs, Field::name);
  uint32_t b = ts_node_end_byte(walrus), e = ts_node_end_byte(field);
  for (const Lowering::Child &c : cs)
    if (!c.named && L.text(c.node) == ":=")
      b = ts_node_start_byte(c.node) + 1; // the spec starts at the '='
  TSNode close = ts_node_child(field, ts_node_child_count(field) - 1);
  if (!ts_node_is_null(close) && L.text(close) == "}")
    e = ts_node_start_byte(close);
  std::string_view text = std::string_view(L.source_.text()).substr(b, e > b ? e - b : 0);
  SourceRange at{L.source_.position(b), L.source_.position(e)};
  Op *value = L.expr(name);
  Op *spec;
  if (text.find_first_of("{}") == std::string_view::npos) {
    L.treatErrorsAsText(field);
    std::string v = decodePiece(L, text, b, raw, LiteralKind::FormatLiteralPart);
    spec = L.emit(OpKind::FString, at, {L.emit(OpKind::Str, at, {}, L.module_.save(v))});
  } else {
    // Nested fields, which tree-sitter did not split out: not modeled, but
    // what they name stays visible.
    spec = L.opaque(expression);
  }
  return L.emit(OpKind::FormatValue, L.rangeOf(field), {value, spec});
}

static Op *replacementField(Lowering &L, TSNode field, bool raw, StringBuilder &sb) {
  Lowering::Children cs;
  L.children(field, cs);
  TSNode exprNode = Lowering::fieldChild(cs, Field::expression);
  TSNode conv = Lowering::fieldChild(cs, Field::type_conversion);
  TSNode spec = Lowering::fieldChild(cs, Field::format_specifier);
  bool debug = false;
  TSNode equals{};
  for (const Lowering::Child &c : cs)
    if (!c.named && L.text(c.node) == "=") {
      debug = true;
      equals = c.node;
    }
  if (debug && !ts_node_is_null(exprNode)) {
    // f"{x=}" prepends the expression's source text and the '=' (CPython 3.8+).
    uint32_t b = ts_node_end_byte(cs.front().node), e = ts_node_end_byte(equals);
    std::string_view t = std::string_view(L.source_.text()).substr(b, e - b);
    sb.addLiteral(t, {L.source_.position(b), L.source_.position(e)});
  }
  sb.flush();
  if (TSNode walrus = misreadWalrus(field); !ts_node_is_null(walrus))
    return formatWithEqualsSpec(L, field, exprNode, walrus, raw);
  Op *value = L.exprList(exprNode);
  Op *specOp = ts_node_is_null(spec) ? nullptr : formatSpec(L, spec, raw);
  std::string_view conversion;
  if (!ts_node_is_null(conv))
    conversion = L.text(conv).substr(1); // "!r" -> "r"
  else if (debug && !specOp)
    conversion = "r";
  return L.emit(OpKind::FormatValue, L.rangeOf(field), {value, specOp}, conversion);
}

static Op *formatSpec(Lowering &L, TSNode spec, bool raw) {
  Lowering::Children cs;
  L.children(spec, cs);
  StringBuilder sb(L);
  // The spec's text starts after its ':'; literal runs lie between nested fields.
  uint32_t pos = ts_node_start_byte(spec);
  if (!cs.empty() && !cs.front().named && L.text(cs.front().node) == ":")
    pos = ts_node_end_byte(cs.front().node);
  auto literalUpTo = [&](uint32_t end) {
    if (end <= pos)
      return;
    std::string_view body = std::string_view(L.source_.text()).substr(pos, end - pos);
    std::string v = decodePiece(L, body, pos, raw, LiteralKind::FormatLiteralPart);
    sb.addLiteral(v, {L.source_.position(pos), L.source_.position(end)});
  };
  for (const Lowering::Child &c : cs) {
    if (c.sym != Sym::format_expression)
      continue;
    literalUpTo(ts_node_start_byte(c.node));
    sb.parts.push_back(replacementField(L, c.node, raw, sb));
    pos = ts_node_end_byte(c.node);
  }
  literalUpTo(ts_node_end_byte(spec));
  sb.flush();
  return L.emit(OpKind::FString, L.rangeOf(spec), sb.parts);
}

Op *Lowering::strings(TSNode n) {
  llvm::SmallVector<TSNode, 2> pieces;
  if (sym(n) == Sym::concatenated_string) {
    Children cs;
    children(n, cs);
    for (const Child &c : cs)
      if (c.sym == Sym::string)
        pieces.push_back(c.node);
  } else {
    pieces.push_back(n);
  }

  bool anyFormat = false, anyBytes = false, anyStr = false;
  for (TSNode p : pieces) {
    TSNode start = ts_node_child(p, 0);
    StringPrefix prefix = parseStringPrefix(text(start));
    anyFormat |= prefix.format;
    (prefix.bytes ? anyBytes : anyStr) = true;
  }
  SourceRange range = rangeOf(n);
  if (anyBytes && anyStr)
    error(DiagId::SyntaxError, range, {"cannot mix bytes and nonbytes literals"});

  StringBuilder sb(*this);
  for (TSNode p : pieces) {
    Children cs;
    children(p, cs);
    if (cs.empty())
      continue;
    StringPrefix prefix = parseStringPrefix(text(cs.front().node));
    if (!prefix.valid)
      error(DiagId::InvalidStringLiteral, rangeOf(cs.front().node),
            {"invalid string prefix '" +
             std::string(text(cs.front().node).substr(0, prefix.prefixLength)) + "'"});
    LiteralKind kind = prefix.bytes    ? LiteralKind::Bytes
                       : prefix.format ? LiteralKind::FormatLiteralPart
                                       : LiteralKind::Str;
    uint32_t bodyBegin = ts_node_end_byte(cs.front().node);
    uint32_t bodyEnd = cs.back().sym == Sym::string_end ? ts_node_start_byte(cs.back().node)
                                                        : ts_node_end_byte(p);
    if (!prefix.format) {
      std::string_view body =
          std::string_view(source_.text()).substr(bodyBegin, bodyEnd - bodyBegin);
      sb.addLiteral(decodePiece(*this, body, bodyBegin, prefix.raw, kind), rangeOf(p));
      continue;
    }
    // An f-string: literal runs between replacement fields.
    uint32_t pos = bodyBegin;
    auto literalUpTo = [&](uint32_t end) {
      if (end <= pos)
        return;
      std::string_view body = std::string_view(source_.text()).substr(pos, end - pos);
      sb.addLiteral(decodePiece(*this, body, pos, prefix.raw, kind),
                    {source_.position(pos), source_.position(end)});
    };
    for (const Child &c : cs) {
      if (c.sym != Sym::interpolation)
        continue;
      literalUpTo(ts_node_start_byte(c.node));
      sb.parts.push_back(replacementField(*this, c.node, prefix.raw, sb));
      pos = ts_node_end_byte(c.node);
    }
    literalUpTo(bodyEnd);
  }

  if (!anyFormat) {
    std::string_view value = module_.save(sb.pending);
    return emit(anyBytes ? OpKind::Bytes : OpKind::Str, range, {}, value);
  }
  sb.flush();
  return emit(OpKind::FString, range, sb.parts);
}

} // namespace ivc
