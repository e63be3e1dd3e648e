//===- Doubling.cpp - Lists grown in place by themselves in a loop (IVC312) ===//
//
// `s.extend(s)` in a loop doubles a list at every turn: 31 turns of a
// one-item list make 2^31 items, the last copy one C call of 8 GiB. The
// list may be reached under any name (`a = s; b = s; a += b`, `box[0]`,
// `a.extend(b); b.extend(a)`), and ivc does not track aliases, so a list
// grown in place inside a loop (`+=`, `extend`, `list.extend(s, x)`, a slice
// store) is judged by what it is grown by: a display of fixed length adds a
// fixed count, and so does anything that reads no name that may hold a
// sequence (`h.tolist()` of a tensor `h`, `range(8)`); anything else may be
// a list that grows with it.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// Whether the target of `+=` or of a slice store may be a sequence: a name
/// by what its bindings make it, a subscript by what it indexes.
bool targetMaySequence(RuleContext &ctx, const Op *target) {
  if (target && target->is(OpKind::Subscript))
    return maySequence(ctx, target->operand(0));
  const Symbol *s = symbolOf(ctx, target);
  if (!s || (target->ctx == Ctx::Load && ctx.values.fromCaller(target)))
    return true;
  return llvm::any_of(s->bindings, [&](const Binding &b) {
    if (b.kind == Binding::Kind::AugAssign)
      return false;
    return b.kind != Binding::Kind::Assign || !b.path.empty() || !b.value ||
           maySequence(ctx, b.value);
  });
}

/// Whether `op` reads a name that may hold a sequence (a bounded walk; too
/// large to walk counts as yes).
bool readsSequence(RuleContext &ctx, const Op *op, int &budget) {
  if (!op || --budget < 0)
    return budget < 0;
  if (op->is(OpKind::Name) && op->ctx == Ctx::Load && maySequence(ctx, op))
    return true;
  return llvm::any_of(op->operands, [&](const Op *o) { return readsSequence(ctx, o, budget); });
}

/// A list or tuple display without `*` items: it adds a fixed count.
bool fixedLength(const Op *op) {
  return op && (op->is(OpKind::List) || op->is(OpKind::Tuple)) &&
         llvm::none_of(op->operands, [](const Op *o) { return o && o->is(OpKind::Starred); });
}

/// What `op` grows what may be a list in place by: `s += x`, `s.extend(x)`,
/// `list.extend(s, x)`, `s[a:b] = x` (not a tensor's `h[:] += d`).
const Op *addedInPlace(RuleContext &ctx, const Op &op) {
  if (op.is(OpKind::AugAssign))
    return op.text == "+=" && targetMaySequence(ctx, op.operand(0)) ? op.operand(1) : nullptr;
  if (op.is(OpKind::Call)) {
    const Op *callee = op.operand(0);
    if (!callee || !callee->is(OpKind::Attribute) || callee->text != "extend")
      return nullptr;
    bool unbound = llvm::any_of(ctx.valuesOf(callee->operand(0)), [](const Value &v) {
      return v.kind == ValueKind::Builtin && v.text == "list";
    });
    if (!unbound && !maySequence(ctx, callee->operand(0)))
      return nullptr;
    return positionalArgument(op, unbound ? 1 : 0);
  }
  if (op.is(OpKind::Assign) && op.operands.size() >= 2)
    for (size_t i = 0; i + 1 < op.operands.size(); ++i)
      if (const Op *t = op.operand(i); t && t->is(OpKind::Subscript) && t->operand(1) &&
                                       t->operand(1)->is(OpKind::Slice) &&
                                       targetMaySequence(ctx, t))
        return op.operands.back();
  return nullptr;
}

} // namespace

bool growsByItselfInLoop(RuleContext &ctx, const Op &op) {
  const Op *added = addedInPlace(ctx, op);
  if (!added || fixedLength(added) || !inLoopOver(ctx, op, nullptr))
    return false;
  int budget = 256;
  return readsSequence(ctx, added, budget);
}

} // namespace ivc::rules::cost
