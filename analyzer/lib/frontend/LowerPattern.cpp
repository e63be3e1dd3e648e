//===- LowerPattern.cpp - Lowering of match statement patterns -----------===//
#include "Lowering.h"

namespace ivc {

using namespace ir;

namespace {
bool isLiteral(Sym s) {
  return s == Sym::integer || s == Sym::float_ || s == Sym::string ||
         s == Sym::concatenated_string || s == Sym::complex_pattern;
}
} // namespace

// A dotted name in a pattern is a value (`Color.RED`) when dotted, or a
// capture (`x`) when bare.
static Op *dottedValue(Lowering &L, TSNode n) {
  Lowering::Children cs;
  L.children(n, cs);
  Op *cur = nullptr;
  for (const Lowering::Child &c : cs) {
    if (c.sym != Sym::identifier)
      continue;
    SourceRange r = cur ? SourceRange{cur->range.begin, L.rangeOf(c.node).end} : L.rangeOf(c.node);
    cur = cur ? L.emit(OpKind::Attribute, r, {cur}, L.identifier(c.node))
              : L.emit(OpKind::Name, r, {}, L.identifier(c.node));
  }
  return cur;
}

Op *Lowering::pattern(TSNode n) {
  Nesting nesting(*this);
  if (nesting.tooDeep())
    return tooDeep(n);
  SourceRange range = rangeOf(n);
  Children cs;
  children(n, cs);

  // A sequence of alternatives and '-' signs, as in case_pattern and union_pattern.
  auto alternatives = [&](llvm::SmallVectorImpl<Op *> &out) {
    bool negate = false;
    TSNode minus{};
    for (const Child &c : cs) {
      if (!c.named) {
        std::string_view t = text(c.node);
        if (t == "-") {
          negate = true;
          minus = c.node;
        } else if (t == "_") {
          out.push_back(emit(OpKind::MatchAs, rangeOf(c.node), {nullptr}));
        }
        continue;
      }
      if (negate && isLiteral(c.sym)) {
        Op *v = expr(c.node);
        Op *neg = emit(OpKind::UnaryOp, span(minus, c.node), {v}, "-");
        out.push_back(emit(OpKind::MatchValue, neg->range, {neg}));
      } else {
        out.push_back(pattern(c.node));
      }
      negate = false;
    }
  };

  switch (sym(n)) {
  case Sym::case_pattern: {
    llvm::SmallVector<Op *, 1> alts;
    alternatives(alts);
    if (alts.size() == 1)
      return alts[0];
    return opaque(n);
  }
  case Sym::union_pattern: {
    llvm::SmallVector<Op *, 4> alts;
    alternatives(alts);
    return emit(OpKind::MatchOr, range, alts);
  }
  case Sym::as_pattern: {
    Op *inner = nullptr;
    std::string_view name;
    for (const Child &c : cs) {
      if (c.field == Field::alias || (c.sym == Sym::identifier && inner)) {
        Children acs;
        children(c.node, acs);
        name = identifier(acs.empty() ? c.node : acs[0].node);
      } else if (c.named && !inner) {
        inner = pattern(c.node);
      }
    }
    return emit(OpKind::MatchAs, range, {inner}, name);
  }
  case Sym::class_pattern: {
    llvm::SmallVector<Op *, 4> operands;
    operands.push_back(nullptr);
    for (const Child &c : cs) {
      if (c.sym == Sym::dotted_name && !operands[0])
        operands[0] = dottedValue(*this, c.node);
      else if (c.named)
        operands.push_back(pattern(c.node));
    }
    return emit(OpKind::MatchClass, range, operands);
  }
  case Sym::keyword_pattern: {
    std::string_view name;
    Op *value = nullptr;
    bool negate = false;
    TSNode minus{};
    for (const Child &c : cs) {
      if (c.sym == Sym::identifier && name.empty()) {
        name = identifier(c.node);
      } else if (!c.named) {
        std::string_view t = text(c.node);
        if (t == "_")
          value = emit(OpKind::MatchAs, rangeOf(c.node), {nullptr});
        if (t == "-") {
          negate = true;
          minus = c.node;
        }
      } else if (negate && isLiteral(c.sym)) {
        Op *v = expr(c.node);
        Op *neg = emit(OpKind::UnaryOp, span(minus, c.node), {v}, "-");
        value = emit(OpKind::MatchValue, neg->range, {neg});
      } else {
        value = pattern(c.node);
      }
    }
    return emit(OpKind::MatchKeyword, range, {value}, name);
  }
  case Sym::dict_pattern: {
    llvm::SmallVector<Op *, 8> operands;
    std::string_view rest;
    bool negate = false;
    TSNode minus{};
    for (const Child &c : cs) {
      if (c.field == Field::key) {
        if (!c.named && text(c.node) == "-") {
          negate = true;
          minus = c.node;
          continue;
        }
        Op *k = c.sym == Sym::dotted_name ? dottedValue(*this, c.node) : expr(c.node);
        if (negate)
          k = emit(OpKind::UnaryOp, span(minus, c.node), {k}, "-");
        negate = false;
        operands.push_back(k);
      } else if (c.field == Field::value) {
        operands.push_back(pattern(c.node));
      } else if (c.sym == Sym::splat_pattern) {
        Children scs;
        children(c.node, scs);
        for (const Child &s : scs)
          if (s.sym == Sym::identifier)
            rest = identifier(s.node);
      }
    }
    return emit(OpKind::MatchMapping, range, operands, rest);
  }
  case Sym::list_pattern:
  case Sym::tuple_pattern: {
    llvm::SmallVector<Op *, 4> elts;
    for (const Child &c : cs)
      if (c.named)
        elts.push_back(pattern(c.node));
    return emit(OpKind::MatchSequence, range, elts);
  }
  case Sym::splat_pattern: {
    std::string_view name;
    for (const Child &c : cs)
      if (c.sym == Sym::identifier)
        name = identifier(c.node);
    return emit(OpKind::MatchStar, range, {}, name);
  }
  case Sym::dotted_name: {
    size_t parts = 0;
    TSNode only{};
    for (const Child &c : cs)
      if (c.sym == Sym::identifier) {
        ++parts;
        only = c.node;
      }
    if (parts == 1)
      return emit(OpKind::MatchAs, range, {nullptr}, identifier(only));
    Op *v = dottedValue(*this, n);
    return emit(OpKind::MatchValue, range, {v});
  }
  case Sym::identifier: // a capture where the grammar does not wrap it
    return emit(OpKind::MatchAs, range, {nullptr}, identifier(n));
  case Sym::none:
    return emit(OpKind::MatchSingleton, range, {}, "None");
  case Sym::true_:
    return emit(OpKind::MatchSingleton, range, {}, "True");
  case Sym::false_:
    return emit(OpKind::MatchSingleton, range, {}, "False");
  case Sym::complex_pattern: {
    // [-] real (+|-) imaginary
    Op *cur = nullptr;
    std::string_view pendingOp;
    TSNode opNode{};
    bool negateFirst = false;
    for (const Child &c : cs) {
      if (!c.named) {
        if (!cur && text(c.node) == "-")
          negateFirst = true;
        else {
          pendingOp = text(c.node);
          opNode = c.node;
        }
        continue;
      }
      Op *v = expr(c.node);
      if (!cur) {
        cur = negateFirst ? emit(OpKind::UnaryOp, range, {v}, "-") : v;
      } else {
        cur = emit(OpKind::BinaryOp, range, {cur, v}, pendingOp);
      }
    }
    return emit(OpKind::MatchValue, range, {cur});
  }
  default:
    if (isLiteral(sym(n)))
      return emit(OpKind::MatchValue, range, {expr(n)});
    return opaque(n);
  }
}

} // namespace ivc
