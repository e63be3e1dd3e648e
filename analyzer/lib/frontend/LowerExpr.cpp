//===- LowerExpr.cpp - Lowering of Python expressions ---------------------===//
#include "Lowering.h"

namespace ivc {

using namespace ir;

namespace {
bool endsWithImaginary(std::string_view s) {
  return !s.empty() && (s.back() == 'j' || s.back() == 'J');
}

// Operators are single tokens; `not in` and `is not` may hold any whitespace.
std::string normalizeOperator(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space)
      out += ' ';
    space = false;
    out += c;
  }
  return out;
}
} // namespace

Op *Lowering::optionalExpr(TSNode n, Ctx ctx) { return ts_node_is_null(n) ? nullptr : exprList(n, ctx); }

Op *Lowering::exprList(TSNode n, Ctx ctx) {
  Sym s = sym(n);
  if (s != Sym::expression_list && s != Sym::pattern_list)
    return expr(n, ctx);
  Children cs;
  children(n, cs);
  llvm::SmallVector<Op *, 4> elts;
  for (const Child &c : cs)
    if (c.named)
      elts.push_back(expr(c.node, ctx));
  Op *t = emit(OpKind::Tuple, rangeOf(n), elts);
  t->ctx = ctx;
  return t;
}

Op *Lowering::tooDeep(TSNode n) {
  ++cuts_;
  if (!reportedTooDeep_) {
    reportedTooDeep_ = true;
    error(DiagId::SyntaxError, rangeOf(n),
          {"too many nested expressions or statements (more than " +
           std::to_string(MaxNesting) + " levels)"});
  }
  return emit(OpKind::Opaque, rangeOf(n), {}, ts_node_type(n));
}

Op *Lowering::opaque(TSNode n) {
  Nesting nesting(*this);
  if (nesting.tooDeep())
    return tooDeep(n);
  if (sym(n) == Sym::ERROR)
    loweredErrors_.insert(n.id);
  llvm::SmallVector<Op *, 4> operands;
  opaqueOperands(n, operands);
  return emit(OpKind::Opaque, rangeOf(n), operands, ts_node_type(n));
}

// Every expression inside an unmodeled construct, however deep in other
// unmodeled nodes, stays visible to the passes.
void Lowering::opaqueOperands(TSNode n, llvm::SmallVectorImpl<Op *> &out) {
  Nesting nesting(*this);
  if (nesting.tooDeep()) {
    out.push_back(tooDeep(n));
    return;
  }
  Children cs;
  children(n, cs);
  for (const Child &c : cs) {
    if (!c.named || c.sym == Sym::comment)
      continue;
    if (isExpression(c.sym) || c.sym == Sym::type)
      out.push_back(expr(c.node));
    else if (c.sym == Sym::ERROR)
      out.push_back(opaque(c.node));
    else
      opaqueOperands(c.node, out);
  }
}

void Lowering::callArguments(TSNode args, llvm::SmallVectorImpl<Op *> &out) {
  Children cs;
  children(args, cs);
  for (const Child &c : cs) {
    if (!c.named)
      continue;
    switch (c.sym) {
    case Sym::keyword_argument: {
      Children kcs;
      children(c.node, kcs);
      Op *value = expr(fieldChild(kcs, Field::value));
      out.push_back(emit(OpKind::Keyword, rangeOf(c.node), {value},
                         identifier(fieldChild(kcs, Field::name))));
      break;
    }
    case Sym::dictionary_splat: {
      Children kcs;
      children(c.node, kcs);
      Op *value = nullptr;
      for (const Child &k : kcs)
        if (k.named)
          value = expr(k.node);
      out.push_back(emit(OpKind::KwSplat, rangeOf(c.node), {value}));
      break;
    }
    default:
      out.push_back(expr(c.node));
      break;
    }
  }
}

void Lowering::parameters(TSNode params, llvm::SmallVectorImpl<Op *> &out) {
  if (ts_node_is_null(params))
    return;
  Children cs;
  children(params, cs);
  size_t first = out.size();
  bool keywordOnly = false;
  for (const Child &c : cs) {
    if (!c.named)
      continue;
    TSNode nameNode{}, defaultNode{}, typeNode{};
    ParamKind kind = keywordOnly ? ParamKind::KeywordOnly : ParamKind::Normal;
    TSNode inner = c.node;
    Sym is = c.sym;
    Children pcs;
    if (is == Sym::positional_separator) {
      for (size_t i = first; i < out.size(); ++i)
        out[i]->small = uint8_t(ParamKind::PositionalOnly);
      continue;
    }
    if (is == Sym::keyword_separator) {
      keywordOnly = true;
      continue;
    }
    if (is == Sym::default_parameter || is == Sym::typed_default_parameter ||
        is == Sym::typed_parameter) {
      children(c.node, pcs);
      defaultNode = fieldChild(pcs, Field::value);
      typeNode = fieldChild(pcs, Field::type);
      inner = fieldChild(pcs, Field::name);
      if (ts_node_is_null(inner)) // typed_parameter: the name is its first named child
        for (const Child &p : pcs)
          if (p.named && p.field == Field::None) {
            inner = p.node;
            break;
          }
      is = sym(inner);
    }
    if (is == Sym::list_splat_pattern || is == Sym::dictionary_splat_pattern) {
      kind = is == Sym::list_splat_pattern ? ParamKind::VarArgs : ParamKind::VarKeywords;
      if (kind == ParamKind::VarArgs)
        keywordOnly = true;
      Children scs;
      children(inner, scs);
      for (const Child &s : scs)
        if (s.named)
          nameNode = s.node;
    } else if (is == Sym::identifier) {
      nameNode = inner;
    } else {
      // Python 2 tuple parameters, or an error node.
      error(DiagId::SyntaxError, rangeOf(c.node), {"invalid parameter"});
      out.push_back(opaque(c.node));
      continue;
    }
    Op *def = ts_node_is_null(defaultNode) ? nullptr : expr(defaultNode);
    Op *ann = ts_node_is_null(typeNode) ? nullptr : expr(typeNode);
    Op *p = emit(OpKind::Param, rangeOf(c.node), {def, ann},
                 ts_node_is_null(nameNode) ? std::string_view() : identifier(nameNode));
    p->ctx = Ctx::Store;
    p->small = uint8_t(kind);
    out.push_back(p);
  }
}

namespace {
OpKind comprehensionKind(Sym s) {
  switch (s) {
  case Sym::list_comprehension: return OpKind::ListComp;
  case Sym::set_comprehension: return OpKind::SetComp;
  case Sym::dictionary_comprehension: return OpKind::DictComp;
  default: return OpKind::GeneratorExp;
  }
}
} // namespace

TSNode Lowering::misplacedSplat(TSNode n) {
  auto leftmost = [&](TSNode at) -> TSNode {
    switch (sym(at)) {
    case Sym::call: return ts_node_child_by_field_name(at, "function", 8);
    case Sym::attribute: return ts_node_child_by_field_name(at, "object", 6);
    case Sym::subscript: return ts_node_child_by_field_name(at, "value", 5);
    case Sym::binary_operator: return ts_node_child_by_field_name(at, "left", 4);
    default: return TSNode{};
    }
  };
  // Only such a node whose text starts with `*` can hold one: one byte to
  // read, not a walk, for every other call and attribute.
  if (ts_node_is_null(leftmost(n)) || !text(n).starts_with("*"))
    return TSNode{};
  TSNode at = n;
  while (!ts_node_is_null(at) && sym(at) != Sym::list_splat)
    at = leftmost(at);
  return ts_node_is_null(at) || isMisplacedSplat(at) ? TSNode{} : at;
}

bool Lowering::isMisplacedSplat(TSNode n) const {
  return llvm::any_of(misplacedSplats_, [&](TSNode m) { return ts_node_eq(m, n); });
}

Op *Lowering::expr(TSNode n, Ctx ctx) {
  if (ts_node_is_null(n))
    return nullptr;
  Nesting nesting(*this);
  if (nesting.tooDeep())
    return tooDeep(n);
  SourceRange range = rangeOf(n);
  Sym s = sym(n);
  // Inside a misplaced splat's element, ops start after its `*`.
  if (!misplacedSplats_.empty()) {
    TSNode splat = misplacedSplats_.back();
    if (ts_node_start_byte(n) == ts_node_start_byte(splat) && !ts_node_eq(n, splat))
      range.begin = rangeOf(ts_node_named_child(splat, 0)).begin;
  }
  switch (s) {
  case Sym::identifier: {
    Op *op = emit(OpKind::Name, range, {}, identifier(n));
    op->ctx = ctx;
    return op;
  }
  case Sym::integer:
  case Sym::float_: {
    std::string_view t = text(n);
    OpKind k = endsWithImaginary(t) ? OpKind::Complex
               : s == Sym::integer  ? OpKind::Int
                                    : OpKind::Float;
    return emit(k, range, {}, t);
  }
  case Sym::true_: return emit(OpKind::True, range, {});
  case Sym::false_: return emit(OpKind::False, range, {});
  case Sym::none: return emit(OpKind::None, range, {});
  case Sym::ellipsis: return emit(OpKind::Ellipsis, range, {});
  case Sym::string:
  case Sym::concatenated_string:
    return strings(n);
  default:
    break;
  }

  if (TSNode splat = misplacedSplat(n); !ts_node_is_null(splat)) {
    // Lower `n` with the splat read as its operand, inside a Starred.
    misplacedSplats_.push_back(splat);
    Op *value = expr(n, ctx);
    misplacedSplats_.pop_back();
    Op *op = emit(OpKind::Starred, range, {value});
    op->ctx = ctx;
    return op;
  }

  Children cs;
  children(n, cs);
  switch (s) {
  case Sym::attribute: {
    Op *object = expr(fieldChild(cs, Field::object));
    Op *op = emit(OpKind::Attribute, range, {object}, identifier(fieldChild(cs, Field::attribute)));
    op->ctx = ctx;
    return op;
  }
  case Sym::subscript: {
    Op *object = expr(fieldChild(cs, Field::value));
    llvm::SmallVector<TSNode, 2> indices;
    for (const Child &c : cs)
      if (c.field == Field::subscript)
        indices.push_back(c.node);
    Op *index = nullptr;
    if (indices.size() == 1) {
      index = expr(indices[0]);
    } else if (!indices.empty()) { // a[1, 2:3] indexes with a tuple
      llvm::SmallVector<Op *, 2> elts;
      for (TSNode i : indices)
        elts.push_back(expr(i));
      index = emit(OpKind::Tuple, span(indices.front(), indices.back()), elts);
    }
    Op *op = emit(OpKind::Subscript, range, {object, index});
    op->ctx = ctx;
    return op;
  }
  case Sym::slice: {
    // Up to three parts separated by ':' tokens, any of them absent.
    Op *parts[3] = {nullptr, nullptr, nullptr};
    size_t slot = 0;
    for (const Child &c : cs) {
      if (!c.named) {
        if (text(c.node) == ":" && slot < 2)
          ++slot;
        continue;
      }
      parts[slot] = expr(c.node);
    }
    return emit(OpKind::Slice, range, {parts[0], parts[1], parts[2]});
  }
  case Sym::call: {
    llvm::SmallVector<Op *, 6> operands;
    operands.push_back(expr(fieldChild(cs, Field::function)));
    TSNode args = fieldChild(cs, Field::arguments);
    if (sym(args) == Sym::generator_expression)
      operands.push_back(expr(args));
    else if (!ts_node_is_null(args))
      callArguments(args, operands);
    return emit(OpKind::Call, range, operands);
  }
  case Sym::binary_operator: {
    Op *l = expr(fieldChild(cs, Field::left));
    Op *r = expr(fieldChild(cs, Field::right));
    return emit(OpKind::BinaryOp, range, {l, r}, text(fieldChild(cs, Field::operator_)));
  }
  case Sym::boolean_operator: {
    Op *l = expr(fieldChild(cs, Field::left));
    Op *r = expr(fieldChild(cs, Field::right));
    return emit(OpKind::BoolOp, range, {l, r}, text(fieldChild(cs, Field::operator_)));
  }
  case Sym::unary_operator:
  case Sym::not_operator: {
    Op *v = expr(fieldChild(cs, Field::argument));
    return emit(OpKind::UnaryOp, range, {v},
                s == Sym::not_operator ? "not" : text(fieldChild(cs, Field::operator_)));
  }
  case Sym::comparison_operator: {
    llvm::SmallVector<Op *, 3> operands;
    std::string ops;
    for (const Child &c : cs) {
      if (c.field == Field::operators) {
        if (!ops.empty())
          ops += ',';
        ops += normalizeOperator(text(c.node));
      } else if (c.named) {
        operands.push_back(expr(c.node));
      }
    }
    return emit(OpKind::Compare, range, operands, module_.save(ops));
  }
  case Sym::conditional_expression: {
    llvm::SmallVector<TSNode, 3> parts;
    for (const Child &c : cs)
      if (c.named)
        parts.push_back(c.node);
    if (parts.size() != 3)
      return opaque(n);
    Op *cond = expr(parts[1]);
    Op *then = expr(parts[0]);
    Op *other = expr(parts[2]);
    return emit(OpKind::IfExp, range, {cond, then, other});
  }
  case Sym::named_expression: {
    Op *v = expr(fieldChild(cs, Field::value));
    return emit(OpKind::NamedExpr, range, {v}, identifier(fieldChild(cs, Field::name)));
  }
  case Sym::lambda: {
    llvm::SmallVector<Op *, 4> params;
    parameters(fieldChild(cs, Field::parameters), params);
    Op *op = emit(OpKind::Lambda, range, params);
    auto rs = regions(op, 1);
    openBlock();
    TSNode body = fieldChild(cs, Field::body);
    Op *v = expr(body);
    emit(OpKind::Return, rangeOf(body), {v});
    closeBlock(rs[0], RegionKind::Body, op);
    return op;
  }
  case Sym::list_splat:
  case Sym::parenthesized_list_splat:
  case Sym::list_splat_pattern: {
    Op *v = nullptr;
    for (const Child &c : cs)
      if (c.named)
        v = expr(c.node, ctx);
    if (isMisplacedSplat(n))
      return v; // its `*` is on the Starred around the whole element
    Op *op = emit(OpKind::Starred, range, {v});
    op->ctx = ctx;
    return op;
  }
  case Sym::parenthesized_expression: {
    // One expression, but error recovery may leave more inside.
    TSNode inner{};
    size_t named = 0;
    for (const Child &c : cs)
      if (c.named && c.sym != Sym::comment && named++ == 0)
        inner = c.node;
    return named == 1 ? exprList(inner, ctx) : opaque(n);
  }
  case Sym::list:
  case Sym::tuple:
  case Sym::set:
  case Sym::list_pattern:
  case Sym::tuple_pattern:
  case Sym::expression_list:
  case Sym::pattern_list: {
    llvm::SmallVector<Op *, 4> elts;
    for (const Child &c : cs)
      if (c.named)
        elts.push_back(expr(c.node, ctx));
    OpKind k = s == Sym::set                                     ? OpKind::Set
               : (s == Sym::list || s == Sym::list_pattern)     ? OpKind::List
                                                                : OpKind::Tuple;
    Op *op = emit(k, range, elts);
    op->ctx = ctx;
    return op;
  }
  case Sym::dictionary: {
    llvm::SmallVector<Op *, 8> operands;
    for (const Child &c : cs) {
      if (c.sym == Sym::pair) {
        Children pcs;
        children(c.node, pcs);
        operands.push_back(expr(fieldChild(pcs, Field::key)));
        operands.push_back(expr(fieldChild(pcs, Field::value)));
      } else if (c.sym == Sym::dictionary_splat) {
        Children scs;
        children(c.node, scs);
        operands.push_back(nullptr);
        Op *v = nullptr;
        for (const Child &k : scs)
          if (k.named)
            v = expr(k.node);
        operands.push_back(v);
      }
    }
    return emit(OpKind::Dict, range, operands);
  }
  case Sym::list_comprehension:
  case Sym::set_comprehension:
  case Sym::dictionary_comprehension:
  case Sym::generator_expression: {
    // The first iterable is evaluated in the enclosing scope, as in CPython.
    llvm::SmallVector<TSNode, 4> clauses;
    for (const Child &c : cs)
      if (c.sym == Sym::for_in_clause || c.sym == Sym::if_clause)
        clauses.push_back(c.node);
    auto iterOf = [&](const Children &fcs) -> Op * {
      llvm::SmallVector<TSNode, 2> rights;
      for (const Child &c : fcs)
        if (c.field == Field::right && c.named)
          rights.push_back(c.node);
      if (rights.size() == 1)
        return expr(rights[0]);
      llvm::SmallVector<Op *, 2> elts;
      for (TSNode r : rights)
        elts.push_back(expr(r));
      return rights.empty() ? nullptr
                            : emit(OpKind::Tuple, span(rights.front(), rights.back()), elts);
    };
    Op *firstIter = nullptr;
    if (!clauses.empty() && sym(clauses[0]) == Sym::for_in_clause) {
      Children fcs;
      children(clauses[0], fcs);
      firstIter = iterOf(fcs);
    }
    Op *op = emit(comprehensionKind(s), range, {firstIter});
    auto rs = regions(op, 1);
    openBlock();
    for (size_t i = 0; i < clauses.size(); ++i) {
      Children ccs;
      children(clauses[i], ccs);
      if (sym(clauses[i]) == Sym::for_in_clause) {
        Op *iter = i == 0 ? nullptr : iterOf(ccs);
        Op *target = exprList(fieldChild(ccs, Field::left), Ctx::Store);
        Op *f = emit(OpKind::CompFor, rangeOf(clauses[i]), {target, iter});
        for (const Child &c : ccs)
          f->isAsync |= !c.named && text(c.node) == "async";
      } else {
        Op *cond = nullptr;
        for (const Child &c : ccs)
          if (c.named)
            cond = expr(c.node);
        emit(OpKind::CompIf, rangeOf(clauses[i]), {cond});
      }
    }
    TSNode body = fieldChild(cs, Field::body);
    if (sym(body) == Sym::pair) {
      Children pcs;
      children(body, pcs);
      Op *k = expr(fieldChild(pcs, Field::key));
      Op *v = expr(fieldChild(pcs, Field::value));
      emit(OpKind::CompYield, rangeOf(body), {k, v});
    } else {
      emit(OpKind::CompYield, rangeOf(body), {expr(body)});
    }
    closeBlock(rs[0], RegionKind::Clauses, op);
    return op;
  }
  case Sym::await: {
    Op *v = nullptr;
    for (const Child &c : cs)
      if (c.named)
        v = expr(c.node);
    return emit(OpKind::Await, range, {v});
  }
  case Sym::yield: {
    bool from = false;
    Op *v = nullptr;
    for (const Child &c : cs) {
      if (!c.named && text(c.node) == "from")
        from = true;
      else if (c.named)
        v = exprList(c.node);
    }
    return emit(from ? OpKind::YieldFrom : OpKind::Yield, range, {v});
  }
  case Sym::type:
    return typeExpr(n);
  case Sym::keyword_argument: { // only valid in calls; lower it anyway
    Op *value = expr(fieldChild(cs, Field::value));
    return emit(OpKind::Keyword, range, {value}, identifier(fieldChild(cs, Field::name)));
  }
  default:
    return opaque(n);
  }
}

// A `type` node (an annotation, a type alias's value, a type parameter) as
// the expression Python evaluates: `list[int]` subscripts `list`, `A | B`
// is an `|`, `a.B` an attribute. Type parameter declarations (`T: bound`,
// `*Ts`) declare rather than evaluate, and stay opaque.
Op *Lowering::typeExpr(TSNode n) {
  Nesting nesting(*this);
  if (nesting.tooDeep())
    return tooDeep(n);
  Children cs;
  children(n, cs);
  llvm::SmallVector<TSNode, 2> parts; // the named children
  for (const Child &c : cs)
    if (c.named && c.sym != Sym::comment)
      parts.push_back(c.node);
  SourceRange range = rangeOf(n);
  switch (sym(n)) {
  case Sym::type:
    if (parts.size() == 1)
      return isExpression(sym(parts[0])) ? expr(parts[0]) : typeExpr(parts[0]);
    break;
  case Sym::generic_type:
    if (parts.size() == 2 && sym(parts[0]) == Sym::identifier &&
        sym(parts[1]) == Sym::type_parameter) {
      Op *object = emit(OpKind::Name, rangeOf(parts[0]), {}, identifier(parts[0]));
      Children ps;
      children(parts[1], ps);
      llvm::SmallVector<Op *, 2> elts;
      llvm::SmallVector<TSNode, 2> nodes;
      bool comma = false;
      for (const Child &p : ps) {
        comma |= !p.named && text(p.node) == ",";
        if (p.named && p.sym != Sym::comment) {
          elts.push_back(p.sym == Sym::type ? typeExpr(p.node) : opaque(p.node));
          nodes.push_back(p.node);
        }
      }
      Op *index = elts.size() == 1 && !comma ? elts[0]
                  : nodes.empty()            ? emit(OpKind::Tuple, rangeOf(parts[1]), {})
                                  : emit(OpKind::Tuple, span(nodes.front(), nodes.back()), elts);
      return emit(OpKind::Subscript, range, {object, index});
    }
    break;
  case Sym::union_type:
    if (parts.size() == 2)
      return emit(OpKind::BinaryOp, range, {typeExpr(parts[0]), typeExpr(parts[1])}, "|");
    break;
  case Sym::member_type:
    if (parts.size() == 2 && sym(parts[1]) == Sym::identifier)
      return emit(OpKind::Attribute, range, {typeExpr(parts[0])}, identifier(parts[1]));
    break;
  default:
    break;
  }
  return opaque(n);
}

void Lowering::typeParameterBounds(TSNode list, llvm::SmallVectorImpl<Op *> &out) {
  Children ps;
  children(list, ps);
  for (const Child &p : ps) {
    if (!p.named || p.sym == Sym::comment)
      continue;
    TSNode form = p.sym == Sym::type ? ts_node_named_child(p.node, 0) : p.node;
    Sym s = ts_node_is_null(form) ? Sym::Other : sym(form);
    if (s == Sym::identifier || s == Sym::splat_type) // `T`, `*Ts`, `**P`
      continue;
    if (s == Sym::constrained_type && ts_node_named_child_count(form) == 2) // `T: bound`
      out.push_back(typeExpr(ts_node_named_child(form, 1)));
    else
      out.push_back(p.sym == Sym::type ? typeExpr(p.node) : opaque(p.node));
  }
}

} // namespace ivc
