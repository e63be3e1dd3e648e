//===- Nesting.cpp - Loops, and values a loop nests in themselves ---------===//
//
// Where an op runs (inside which loop, in which statement), for the cost
// rules, and values a loop stores again where it read them (IVC312):
// `it = zip(it)`, `x = (x,)`, `a[0] = (a[0],)` or `s.append((s.pop(),))`
// nest once more at every turn, and a C walk of the result (`next`, `hash`)
// recurses once per level, past the end of the stack.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

bool isLoop(const Op &op) {
  return op.is(OpKind::For) || op.is(OpKind::ListComp) || op.is(OpKind::SetComp) ||
         op.is(OpKind::DictComp) || op.is(OpKind::GeneratorExp);
}

bool isScopeBoundary(const Op &op) {
  return op.is(OpKind::FunctionDef) || op.is(OpKind::Lambda) || op.is(OpKind::ClassDef);
}

/// The ops `op` runs inside, innermost first, in its function and within
/// the mediator: a loop around the trace runs the mediator again, not its
/// code many times.
template <typename F> bool anyEnclosing(RuleContext &ctx, const Op &op, F &&f) {
  for (const Op *p = op.parentOp(); p && !isScopeBoundary(*p) && p != ctx.m.mediator.withOp;
       p = p->parentOp())
    if (f(*p))
      return true;
  return false;
}

} // namespace

/// Whether `op` runs inside a loop, in the same function, that iterates
/// `target` (or any loop, when `target` is null).
bool inLoopOver(RuleContext &ctx, const Op &op, const Symbol *target) {
  return anyEnclosing(ctx, op, [&](const Op &p) {
    if (!isLoop(p))
      return false;
    if (!target)
      return true;
    // A for statement's iterable is its second operand; a comprehension's
    // first iterable is its operand, the others are in its comp_for ops.
    if (symbolOf(ctx, p.operand(p.is(OpKind::For) ? 1 : 0)) == target)
      return true;
    if (!p.is(OpKind::For))
      for (const Region &r : p.regions)
        for (const Op *c : r.ops)
          if (c->is(OpKind::CompFor) && symbolOf(ctx, c->operand(1)) == target)
            return true;
    return false;
  });
}

/// The statement an expression op belongs to: the first statement after it
/// in its region (an expression's ops precede the statement that uses them).
const Op *statementOf(const Op &op) {
  if (op.cls() == OpClass::Stmt)
    return &op;
  if (!op.parentRegion)
    return nullptr;
  bool after = false;
  for (const Op *c : op.parentRegion->ops) {
    if (c == &op)
      after = true;
    else if (after && c->cls() == OpClass::Stmt)
      return c;
  }
  return nullptr;
}

/// A callee whose result iterates its arguments lazily: a Python loop over
/// it releases the GIL between items.
bool isLazyWrapper(const Value &v) {
  return (v.kind == ValueKind::Builtin &&
          isOneOf(v.text, {"enumerate", "zip", "reversed", "map", "filter", "iter"})) ||
         (v.kind == ValueKind::Qualified && v.text.starts_with("itertools.") &&
          !isCombinatoric(v)); // those copy their inputs first
}

namespace {

/// The name an expression reads its value from: `a` for `a`, `a[0]`,
/// `a.x` and `a.pop()`, or null.
const Symbol *rootSymbol(RuleContext &ctx, const Op *op) {
  for (int depth = 0; op && depth < 8; ++depth) {
    if (op->is(OpKind::Name))
      return symbolOf(ctx, op);
    if (!(op->is(OpKind::Subscript) || op->is(OpKind::Attribute) || op->is(OpKind::Call)))
      return nullptr;
    op = op->operand(0);
  }
  return nullptr;
}

bool isDisplay(const Op &op) {
  return op.is(OpKind::Tuple) || op.is(OpKind::List) || op.is(OpKind::Set) ||
         op.is(OpKind::Dict);
}

/// Whether `op` keeps what its operands are: a display, or a call of a
/// wrapper that keeps its arguments (`zip`, `map`, `iter`, `partial`).
bool keepsOperands(RuleContext &ctx, const Op &op) {
  if (isDisplay(op))
    return true;
  return op.is(OpKind::Call) && llvm::any_of(ctx.valuesOf(op.operand(0)), [](const Value &v) {
           return isLazyWrapper(v) ||
                  (v.kind == ValueKind::Qualified && v.text == "functools.partial");
         });
}

/// The names whose values `op`, which keeps its operands, holds: through
/// nested displays (`[(a[0],)]` holds `a`).
void heldRoots(RuleContext &ctx, const Op &op, llvm::SmallVectorImpl<const Symbol *> &held,
               int depth = 0) {
  for (size_t i = op.is(OpKind::Call) ? 1 : 0; i < op.operands.size(); ++i) {
    const Op *item = op.operand(i);
    if (item && (item->is(OpKind::Starred) || item->is(OpKind::Keyword)))
      item = item->operand(0);
    if (!item)
      continue;
    if (depth < 4 && isDisplay(*item))
      heldRoots(ctx, *item, held, depth + 1);
    else if (const Symbol *s = rootSymbol(ctx, item))
      held.push_back(s);
  }
}

} // namespace

/// Whether `op`, which keeps its operands, is what a loop stores again where
/// it read one of them: `it = zip(it)`, `x = (x,)`, `a[0] = (a[0],)` or
/// `s.append((s.pop(),))` nests once more at every turn, and a C walk of the
/// result (`next`, `hash`) recurses once per level, past the end of the
/// stack.
bool nestsItselfInLoop(RuleContext &ctx, const Op &op) {
  if (!keepsOperands(ctx, op))
    return false;
  // The names it holds, cheapest test first: most displays hold none.
  llvm::SmallVector<const Symbol *, 4> held;
  heldRoots(ctx, op, held);
  if (held.empty() || !inLoopOver(ctx, op, nullptr))
    return false;
  // Stored by an assignment...
  const Op *stmt = statementOf(op);
  if (stmt && stmt->is(OpKind::Assign) && !stmt->operands.empty() &&
      stmt->operands.back() == &op)
    for (size_t t = 0; t + 1 < stmt->operands.size(); ++t)
      if (llvm::is_contained(held, rootSymbol(ctx, stmt->operand(t))))
        return true;
  return false;
}

/// ...or handed to a method that stores it in the container it was read
/// from (`s.append((s.pop(),))`, `d.setdefault(k, [d])`).
bool storesItselfInLoop(RuleContext &ctx, const Op &call) {
  const Op *callee = call.operand(0);
  if (!callee || !callee->is(OpKind::Attribute) ||
      !isOneOf(callee->text, {"append", "appendleft", "insert", "add", "extend", "setdefault",
                              "update"}))
    return false;
  const Symbol *container = rootSymbol(ctx, callee->operand(0));
  if (!container)
    return false;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (a && a->is(OpKind::Keyword))
      a = a->operand(0);
    llvm::SmallVector<const Symbol *, 4> held;
    if (a && keepsOperands(ctx, *a))
      heldRoots(ctx, *a, held);
    if (llvm::is_contained(held, container))
      return inLoopOver(ctx, call, nullptr);
  }
  return false;
}

} // namespace ivc::rules::cost
