//===- LowerStmt.cpp - Lowering of Python statements ---------------------===//
#include "Lowering.h"

#include <functional>

namespace ivc {

using namespace ir;

void Lowering::lowerBlockInto(TSNode block) {
  Children cs;
  children(block, cs);
  for (const Child &c : cs)
    if (c.named)
      lowerStatement(c.node);
}

Op *Lowering::lowerBody(Op *owner, Region &region, RegionKind kind, TSNode block) {
  openBlock();
  llvm::SmallVector<TSNode, 1> errors;
  errors.swap(bodyErrors_);
  for (TSNode e : errors)
    opaque(e);
  if (!ts_node_is_null(block))
    lowerBlockInto(block);
  closeBlock(region, kind, owner);
  return owner;
}

namespace {
// The node holding a clause's block: a `body` field, or its block child.
TSNode clauseBlock(Lowering &L, TSNode clause) {
  Lowering::Children cs;
  L.children(clause, cs);
  if (TSNode b = Lowering::fieldChild(cs, Field::body); !ts_node_is_null(b))
    return b;
  for (const Lowering::Child &c : cs)
    if (c.sym == Sym::block)
      return c.node;
  return TSNode{};
}

// Whether `e` is a docstring's expression: a string constant, however
// parenthesized or implicitly concatenated, with no bytes or f-string part.
bool isDocstringValue(TSNode e, std::string_view text) {
  const Grammar &g = Grammar::python();
  while (g.sym(e) == Sym::parenthesized_expression && ts_node_named_child_count(e) == 1)
    e = ts_node_named_child(e, 0);
  auto plain = [&](TSNode str) {
    if (g.sym(str) != Sym::string)
      return false;
    std::string_view t = text.substr(ts_node_start_byte(str));
    std::string_view prefix = t.substr(0, t.find_first_of("'\""));
    return prefix.find_first_of("bBfF") == std::string_view::npos;
  };
  if (g.sym(e) != Sym::concatenated_string)
    return plain(e);
  for (uint32_t i = 0; i < ts_node_named_child_count(e); ++i)
    if (!plain(ts_node_named_child(e, i)))
      return false;
  return true;
}

// A `from __future__` import must come first: after a docstring and other
// future imports only, at module level (CPython refuses it anywhere else).
bool atFileStart(TSNode n, std::string_view text) {
  const Grammar &g = Grammar::python();
  TSNode parent = ts_node_parent(n);
  if (ts_node_is_null(parent) || g.sym(parent) != Sym::module)
    return false;
  for (TSNode prev = ts_node_prev_named_sibling(n); !ts_node_is_null(prev);
       prev = ts_node_prev_named_sibling(prev)) {
    Sym s = g.sym(prev);
    if (s == Sym::comment || s == Sym::future_import_statement)
      continue;
    // Only the first statement of the file may be a docstring (comments may
    // come before it).
    TSNode before = ts_node_prev_named_sibling(prev);
    while (!ts_node_is_null(before) && g.sym(before) == Sym::comment)
      before = ts_node_prev_named_sibling(before);
    bool docstring = s == Sym::expression_statement && ts_node_named_child_count(prev) == 1 &&
                     isDocstringValue(ts_node_named_child(prev, 0), text) &&
                     ts_node_is_null(before);
    if (!docstring)
      return false;
  }
  return true;
}

bool hasToken(const Lowering::Children &cs, std::string_view token) {
  for (const Lowering::Child &c : cs)
    if (!c.named && ts_node_type(c.node) == token)
      return true;
  return false;
}
} // namespace

// The grammar reads `print >> f, a` as Python 2's print statement, but it is
// valid Python 3 too: the tuple `(print >> f, a)`, a shift of the builtin that
// fails only when it runs.
Op *Lowering::printChevron(const Children &cs) {
  TSNode keyword = cs[0].node, chevron = cs[1].node;
  Op *print = emit(OpKind::Name, rangeOf(keyword), {}, identifier(keyword));
  // One operand, but error recovery may leave more.
  Op *target = ts_node_named_child_count(chevron) == 1 ? expr(ts_node_named_child(chevron, 0))
                                                        : opaque(chevron);
  Op *shift = emit(OpKind::BinaryOp, span(keyword, chevron), {print, target}, ">>");
  llvm::SmallVector<Op *, 4> elts{shift};
  for (size_t i = 2; i < cs.size(); ++i)
    if (cs[i].named)
      elts.push_back(expr(cs[i].node));
  if (elts.size() == 1 && !hasToken(cs, ","))
    return shift;
  return emit(OpKind::Tuple, span(keyword, cs.back().node), elts);
}

void Lowering::lowerStatement(TSNode n) {
  Nesting nesting(*this);
  if (nesting.tooDeep()) {
    tooDeep(n);
    return;
  }
  Children cs;
  children(n, cs);
  SourceRange range = rangeOf(n);
  // tree-sitter attaches unparsable text to the nearest statement; keep what
  // it contains visible to the passes instead of dropping it. Text after a
  // compound statement's ':' belongs to its body (see lowerBody).
  if (sym(n) != Sym::ERROR) {
    bool afterColon = false;
    for (const Child &c : cs) {
      afterColon |= !c.named && text(c.node) == ":";
      if (c.sym != Sym::ERROR)
        continue;
      if (afterColon)
        bodyErrors_.push_back(c.node);
      else
        opaque(c.node);
    }
  }
  lowerStatementNode(n, cs, range);
  if (ts_node_has_error(n))
    strayErrors(n);
}

template <typename F> void Lowering::forEachError(TSNode n, F &&f) {
  llvm::SmallVector<TSNode, 16> work{n};
  while (!work.empty()) {
    TSNode m = work.pop_back_val();
    if (sym(m) == Sym::ERROR)
      f(m);
    for (uint32_t i = 0, count = ts_node_child_count(m); i < count; ++i)
      if (TSNode c = ts_node_child(m, i); ts_node_has_error(c))
        work.push_back(c);
  }
}

// Into bodies too: a statement lowered as opaque did not lower its body's
// statements one by one.
void Lowering::strayErrors(TSNode n) {
  forEachError(n, [&](TSNode e) {
    if (!loweredErrors_.contains(e.id))
      opaque(e);
  });
}

void Lowering::treatErrorsAsText(TSNode n) {
  forEachError(n, [&](TSNode e) { loweredErrors_.insert(e.id); });
}

// `E as e`, as the grammar wraps an exception type and the name it binds.
void Lowering::splitAsPattern(TSNode pattern, TSNode &value, TSNode &alias) {
  Children cs;
  children(pattern, cs);
  value = alias = TSNode{};
  for (const Child &c : cs) {
    if (c.field == Field::alias)
      alias = c.node;
    else if (c.named && c.sym != Sym::ERROR && c.sym != Sym::comment && ts_node_is_null(value))
      value = c.node;
  }
}

void Lowering::lowerStatementNode(TSNode n, const Children &cs, SourceRange range) {
  switch (sym(n)) {
  case Sym::expression_statement: {
    llvm::SmallVector<TSNode, 4> parts;
    for (const Child &c : cs)
      if (c.named)
        parts.push_back(c.node);
    if (parts.size() == 1 && sym(parts[0]) == Sym::assignment) {
      lowerStatement(parts[0]);
      return;
    }
    if (parts.size() == 1 && sym(parts[0]) == Sym::augmented_assignment) {
      lowerStatement(parts[0]);
      return;
    }
    if (parts.empty())
      return;
    Op *value;
    if (parts.size() == 1) {
      value = expr(parts[0]);
    } else { // `a, b` as a statement is a tuple
      llvm::SmallVector<Op *, 4> elts;
      for (TSNode p : parts)
        elts.push_back(expr(p));
      value = emit(OpKind::Tuple, span(parts.front(), parts.back()), elts);
    }
    emit(OpKind::ExprStmt, range, {value});
    return;
  }
  case Sym::assignment: {
    // `a = b = c` nests to the right; collect every target, then the value.
    llvm::SmallVector<TSNode, 2> targets;
    TSNode annotation{}, value{};
    TSNode cur = n;
    Children curCs = cs;
    while (true) {
      targets.push_back(fieldChild(curCs, Field::left));
      annotation = fieldChild(curCs, Field::type);
      value = fieldChild(curCs, Field::right);
      if (!ts_node_is_null(value) && sym(value) == Sym::assignment && ts_node_is_null(annotation)) {
        cur = value;
        children(cur, curCs);
        continue;
      }
      break;
    }
    if (!ts_node_is_null(annotation) && targets.size() == 1) {
      Op *v = optionalExpr(value);
      Op *ann = expr(annotation);
      Op *target = exprList(targets[0], Ctx::Store);
      emit(OpKind::AnnAssign, range, {target, ann, v});
      return;
    }
    if (!ts_node_is_null(annotation)) {
      // `x = a: T`, which tree-sitter accepts; CPython points at the ':'.
      TSNode colon = ts_node_prev_sibling(annotation);
      error(DiagId::SyntaxError, rangeOf(ts_node_is_null(colon) ? annotation : colon),
            {"invalid syntax"});
      llvm::SmallVector<Op *, 4> operands;
      for (TSNode t : targets)
        operands.push_back(exprList(t));
      operands.push_back(expr(annotation));
      operands.push_back(optionalExpr(value));
      emit(OpKind::Opaque, range, operands, "assignment");
      return;
    }
    Op *v = exprList(value);
    llvm::SmallVector<Op *, 3> operands;
    for (TSNode t : targets)
      operands.push_back(exprList(t, Ctx::Store));
    operands.push_back(v);
    emit(OpKind::Assign, range, operands);
    return;
  }
  case Sym::augmented_assignment: {
    Op *target = exprList(fieldChild(cs, Field::left), Ctx::Store);
    Op *value = exprList(fieldChild(cs, Field::right));
    emit(OpKind::AugAssign, range, {target, value}, text(fieldChild(cs, Field::operator_)));
    return;
  }
  case Sym::return_statement: {
    Op *value = nullptr;
    for (const Child &c : cs)
      if (c.named)
        value = exprList(c.node);
    emit(OpKind::Return, range, {value});
    return;
  }
  case Sym::if_statement: {
    // elif clauses nest in the else region, as in CPython's ast.
    llvm::SmallVector<TSNode, 4> alternatives;
    for (const Child &c : cs)
      if (c.field == Field::alternative)
        alternatives.push_back(c.node);
    std::function<void(TSNode, TSNode, SourceRange, size_t)> lowerIf =
        [&](TSNode cond, TSNode then, SourceRange r, size_t next) {
          Op *c = expr(cond);
          Op *op = emit(OpKind::If, r, {c});
          auto rs = regions(op, 2);
          lowerBody(op, rs[0], RegionKind::Then, then);
          openBlock();
          if (next < alternatives.size()) {
            TSNode alt = alternatives[next];
            if (sym(alt) == Sym::elif_clause) {
              Children acs;
              children(alt, acs);
              SourceRange ar = rangeOf(alt);
              lowerIf(fieldChild(acs, Field::condition), fieldChild(acs, Field::consequence), ar,
                      next + 1);
            } else {
              TSNode b = clauseBlock(*this, alt);
              if (!ts_node_is_null(b))
                lowerBlockInto(b);
            }
          }
          closeBlock(rs[1], RegionKind::Else, op);
        };
    lowerIf(fieldChild(cs, Field::condition), fieldChild(cs, Field::consequence), range, 0);
    return;
  }
  case Sym::for_statement: {
    Op *iter = exprList(fieldChild(cs, Field::right));
    Op *target = exprList(fieldChild(cs, Field::left), Ctx::Store);
    Op *op = emit(OpKind::For, range, {target, iter});
    op->isAsync = hasToken(cs, "async");
    auto rs = regions(op, 2);
    lowerBody(op, rs[0], RegionKind::Body, fieldChild(cs, Field::body));
    TSNode alt = fieldChild(cs, Field::alternative);
    lowerBody(op, rs[1], RegionKind::Else, ts_node_is_null(alt) ? alt : clauseBlock(*this, alt));
    return;
  }
  case Sym::while_statement: {
    Op *cond = expr(fieldChild(cs, Field::condition));
    Op *op = emit(OpKind::While, range, {cond});
    auto rs = regions(op, 2);
    lowerBody(op, rs[0], RegionKind::Body, fieldChild(cs, Field::body));
    TSNode alt = fieldChild(cs, Field::alternative);
    lowerBody(op, rs[1], RegionKind::Else, ts_node_is_null(alt) ? alt : clauseBlock(*this, alt));
    return;
  }
  case Sym::with_statement:
    lowerWith(n, cs);
    return;
  case Sym::try_statement: {
    llvm::SmallVector<TSNode, 4> handlers;
    TSNode elseClause{}, finallyClause{};
    bool star = false;
    for (const Child &c : cs) {
      if (c.sym == Sym::except_clause || c.sym == Sym::except_group_clause) {
        handlers.push_back(c.node);
        star |= c.sym == Sym::except_group_clause;
      } else if (c.sym == Sym::else_clause) {
        elseClause = c.node;
      } else if (c.sym == Sym::finally_clause) {
        finallyClause = c.node;
      }
    }
    Op *op = emit(OpKind::Try, range, {});
    op->isAsync = star; // except*: see Ops.def
    size_t n = 1 + handlers.size() + !ts_node_is_null(elseClause) + !ts_node_is_null(finallyClause);
    auto rs = regions(op, n);
    lowerBody(op, rs[0], RegionKind::Body, fieldChild(cs, Field::body));
    size_t next = 1;
    for (TSNode h : handlers) {
      Children hcs;
      children(h, hcs);
      TSNode value{}, alias{}, block{};
      bool comma = false;
      for (const Child &c : hcs) {
        if (c.sym == Sym::block)
          block = c.node;
        else if (c.field == Field::alias)
          alias = c.node;
        else if (!c.named)
          comma |= text(c.node) == ",";
        else if (c.sym != Sym::ERROR && c.sym != Sym::comment && ts_node_is_null(value))
          value = c.node; // an ERROR beside it is lowered by strayErrors
      }
      openBlock();
      TSNode nameNode{};
      Op *type = nullptr;
      if (comma && !ts_node_is_null(value) && !ts_node_is_null(alias)) {
        // `except A, B:` catches A or B (Python 3.14; an error before): B is
        // read, not bound. With `as`, the types must be parenthesized.
        TSNode second = alias;
        if (sym(alias) == Sym::as_pattern) {
          error(DiagId::SyntaxError, rangeOf(alias),
                {"multiple exception types must be parenthesized when using 'as'"});
          splitAsPattern(alias, second, nameNode);
        }
        type = emit(OpKind::Tuple, span(value, ts_node_is_null(second) ? value : second),
                    {expr(value), expr(second)});
      } else if (!ts_node_is_null(value) && sym(value) == Sym::as_pattern) {
        // `except E as e`: the grammar may wrap type and name in an as_pattern.
        TSNode typeNode;
        splitAsPattern(value, typeNode, nameNode);
        type = expr(typeNode);
      } else {
        type = expr(value);
        nameNode = alias;
      }
      std::string_view name;
      if (!ts_node_is_null(nameNode)) {
        Children ncs;
        children(nameNode, ncs);
        name = identifier(ncs.empty() ? nameNode : ncs[0].node);
      }
      SourceRange hr = rangeOf(h);
      Op *handler = emit(OpKind::ExceptHandler, hr, {type}, name);
      handler->isAsync = sym(h) == Sym::except_group_clause;
      if (!ts_node_is_null(block))
        lowerBlockInto(block);
      closeBlock(rs[next++], RegionKind::Except, op);
    }
    if (!ts_node_is_null(elseClause))
      lowerBody(op, rs[next++], RegionKind::Else, clauseBlock(*this, elseClause));
    if (!ts_node_is_null(finallyClause))
      lowerBody(op, rs[next++], RegionKind::Finally, clauseBlock(*this, finallyClause));
    return;
  }
  case Sym::match_statement: {
    llvm::SmallVector<TSNode, 2> subjects;
    for (const Child &c : cs)
      if (c.field == Field::subject)
        subjects.push_back(c.node);
    Op *subject;
    if (subjects.size() == 1) {
      subject = expr(subjects[0]);
    } else {
      llvm::SmallVector<Op *, 2> elts;
      for (TSNode s : subjects)
        elts.push_back(expr(s));
      subject = emit(OpKind::Tuple, span(subjects.front(), subjects.back()), elts);
    }
    Op *op = emit(OpKind::Match, range, {subject});
    Children bcs;
    children(fieldChild(cs, Field::body), bcs);
    llvm::SmallVector<TSNode, 4> cases;
    for (const Child &c : bcs)
      if (c.sym == Sym::case_clause)
        cases.push_back(c.node);
    auto rs = regions(op, cases.size());
    for (size_t i = 0; i < cases.size(); ++i) {
      Children ccs;
      children(cases[i], ccs);
      openBlock();
      llvm::SmallVector<TSNode, 2> pats;
      for (const Child &c : ccs)
        if (c.sym == Sym::case_pattern)
          pats.push_back(c.node);
      Op *pat;
      if (pats.size() == 1) {
        pat = pattern(pats[0]);
      } else { // `case 1, 2:` is a sequence pattern
        llvm::SmallVector<Op *, 2> elts;
        for (TSNode p : pats)
          elts.push_back(pattern(p));
        pat = pats.empty() ? nullptr
                           : emit(OpKind::MatchSequence, span(pats.front(), pats.back()), elts);
      }
      Op *guard = nullptr;
      if (TSNode g = fieldChild(ccs, Field::guard); !ts_node_is_null(g)) {
        Children gcs;
        children(g, gcs);
        for (const Child &c : gcs)
          if (c.named)
            guard = expr(c.node);
      }
      emit(OpKind::Case, rangeOf(cases[i]), {pat, guard});
      if (TSNode b = fieldChild(ccs, Field::consequence); !ts_node_is_null(b))
        lowerBlockInto(b);
      closeBlock(rs[i], RegionKind::Case, op);
    }
    return;
  }
  case Sym::decorated_definition:
  case Sym::function_definition:
  case Sym::class_definition: {
    llvm::SmallVector<Op *, 8> operands;
    TSNode def = n;
    Children dcs = cs;
    if (sym(n) == Sym::decorated_definition) {
      for (const Child &c : cs) {
        if (c.sym != Sym::decorator)
          continue;
        Children decCs;
        children(c.node, decCs);
        for (const Child &d : decCs)
          if (d.named)
            operands.push_back(emit(OpKind::Decorator, rangeOf(c.node), {expr(d.node)}));
      }
      def = fieldChild(cs, Field::definition);
      if (ts_node_is_null(def)) {
        opaque(n);
        return;
      }
      children(def, dcs);
    }
    std::string_view name = identifier(fieldChild(dcs, Field::name));
    SourceRange defRange = rangeOf(n);
    // Type parameters (`def f[T: bound]`) are not modeled; what their bounds
    // name stays visible in the statement's header.
    if (TSNode tp = fieldChild(dcs, Field::type_parameters); !ts_node_is_null(tp)) {
      llvm::SmallVector<Op *, 2> bounds;
      typeParameterBounds(tp, bounds);
      emit(OpKind::Opaque, rangeOf(tp), bounds, "type_parameter");
    }
    if (sym(def) == Sym::function_definition) {
      parameters(fieldChild(dcs, Field::parameters), operands);
      if (TSNode rt = fieldChild(dcs, Field::return_type); !ts_node_is_null(rt))
        operands.push_back(emit(OpKind::Returns, rangeOf(rt), {expr(rt)}));
      Op *op = emit(OpKind::FunctionDef, defRange, operands, name);
      op->isAsync = hasToken(dcs, "async");
      lowerBody(op, regions(op, 1)[0], RegionKind::Body, fieldChild(dcs, Field::body));
    } else {
      if (TSNode sc = fieldChild(dcs, Field::superclasses); !ts_node_is_null(sc))
        callArguments(sc, operands);
      Op *op = emit(OpKind::ClassDef, defRange, operands, name);
      lowerBody(op, regions(op, 1)[0], RegionKind::Body, fieldChild(dcs, Field::body));
    }
    return;
  }
  case Sym::raise_statement: {
    Op *exc = nullptr, *cause = nullptr;
    for (const Child &c : cs) {
      if (c.field == Field::cause)
        cause = expr(c.node);
      else if (c.named)
        exc = exprList(c.node);
    }
    emit(OpKind::Raise, range, {exc, cause});
    return;
  }
  case Sym::delete_statement: {
    llvm::SmallVector<Op *, 2> targets;
    for (const Child &c : cs) {
      if (!c.named)
        continue;
      if (c.sym == Sym::expression_list) {
        Children ecs;
        children(c.node, ecs);
        for (const Child &e : ecs)
          if (e.named)
            targets.push_back(expr(e.node, Ctx::Del));
      } else {
        targets.push_back(expr(c.node, Ctx::Del));
      }
    }
    emit(OpKind::Delete, range, targets);
    return;
  }
  case Sym::assert_statement: {
    llvm::SmallVector<Op *, 2> parts;
    for (const Child &c : cs)
      if (c.named)
        parts.push_back(expr(c.node));
    parts.resize(2, nullptr);
    emit(OpKind::Assert, range, parts);
    return;
  }
  case Sym::import_statement: {
    for (const Child &c : cs) {
      if (c.field != Field::name)
        continue;
      if (c.sym == Sym::aliased_import) {
        Children acs;
        children(c.node, acs);
        Op *op = emit(OpKind::Import, rangeOf(c.node), {},
                      dottedName(fieldChild(acs, Field::name)));
        op->alias = identifier(fieldChild(acs, Field::alias));
      } else {
        emit(OpKind::Import, rangeOf(c.node), {}, dottedName(c.node));
      }
    }
    return;
  }
  case Sym::import_from_statement:
  case Sym::future_import_statement: {
    if (sym(n) == Sym::future_import_statement && !atFileStart(n, source_.text()))
      error(DiagId::SyntaxError, range,
            {"from __future__ imports must occur at the beginning of the file"});
    std::string_view module = "__future__";
    uint32_t level = 0;
    if (TSNode m = fieldChild(cs, Field::module_name); !ts_node_is_null(m)) {
      module = {};
      if (sym(m) == Sym::relative_import) {
        Children rcs;
        children(m, rcs);
        for (const Child &r : rcs) {
          if (r.sym == Sym::import_prefix)
            level = ts_node_end_byte(r.node) - ts_node_start_byte(r.node);
          else if (r.sym == Sym::dotted_name)
            module = dottedName(r.node);
        }
      } else {
        module = dottedName(m);
      }
    }
    auto emitName = [&](SourceRange r, std::string_view name, std::string_view alias) {
      Op *op = emit(OpKind::ImportFrom, r, {}, name);
      op->text2 = module;
      op->alias = alias;
      op->number = level;
    };
    bool any = false;
    for (const Child &c : cs) {
      if (c.sym == Sym::wildcard_import) {
        emitName(rangeOf(c.node), "*", {});
      } else if (c.field == Field::name && c.sym == Sym::aliased_import) {
        Children acs;
        children(c.node, acs);
        emitName(rangeOf(c.node), dottedName(fieldChild(acs, Field::name)),
                 identifier(fieldChild(acs, Field::alias)));
      } else if (c.field == Field::name) {
        emitName(rangeOf(c.node), dottedName(c.node), {});
      } else {
        continue;
      }
      any = true;
    }
    if (!any)
      opaque(n);
    return;
  }
  case Sym::global_statement:
  case Sym::nonlocal_statement: {
    OpKind kind = sym(n) == Sym::global_statement ? OpKind::Global : OpKind::Nonlocal;
    for (const Child &c : cs)
      if (c.sym == Sym::identifier)
        module_.noteScopeDeclaration(emit(kind, rangeOf(c.node), {}, identifier(c.node)));
    return;
  }
  case Sym::pass_statement:
    emit(OpKind::Pass, range, {});
    return;
  case Sym::break_statement:
    emit(OpKind::Break, range, {});
    return;
  case Sym::continue_statement:
    emit(OpKind::Continue, range, {});
    return;
  case Sym::type_alias_statement: {
    // `type Name[T: bound] = value` is not modeled; its value and bounds,
    // evaluated when the alias is used, stay visible. Name and T are
    // declarations: unknown to the scopes, a builtin's name stays the builtin.
    llvm::SmallVector<Op *, 4> operands;
    for (const Child &c : cs) {
      if (c.field == Field::left) {
        TSNode form = ts_node_named_child(c.node, 0);
        Sym s = ts_node_is_null(form) ? Sym::Other : sym(form);
        if (s == Sym::generic_type) {
          for (uint32_t i = 0; i < ts_node_named_child_count(form); ++i)
            if (TSNode tp = ts_node_named_child(form, i); sym(tp) == Sym::type_parameter)
              typeParameterBounds(tp, operands);
        } else if (s != Sym::identifier) { // no declaration: broken code
          operands.push_back(typeExpr(c.node));
        }
      } else if (c.field == Field::right) {
        operands.push_back(typeExpr(c.node));
      } else if (c.sym == Sym::ERROR) {
        operands.push_back(opaque(c.node));
      }
    }
    emit(OpKind::Opaque, range, operands, "type_alias_statement");
    return;
  }
  case Sym::print_statement:
    if (cs.size() > 1 && cs[1].sym == Sym::chevron) {
      emit(OpKind::ExprStmt, range, {printChevron(cs)});
      return;
    }
    [[fallthrough]];
  case Sym::exec_statement: {
    std::string_view kw = sym(n) == Sym::print_statement ? "print" : "exec";
    // `print(a b)` also parses as a print statement; its ERROR explains it.
    bool parenthesized = cs.size() > 1 && text(cs[1].node).substr(0, 1) == "(";
    if (!parenthesized)
      error(DiagId::SyntaxError, range,
          {"missing parentheses in call to '" + std::string(kw) + "'; Python 3 has no " +
           std::string(kw) + " statement"});
    opaque(n);
    return;
  }
  default:
    if (isExpression(sym(n))) {
      emit(OpKind::ExprStmt, range, {expr(n)});
      return;
    }
    opaque(n);
    return;
  }
}

} // namespace ivc
