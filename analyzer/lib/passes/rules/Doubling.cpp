//===- Doubling.cpp - Lists grown in place by themselves in a loop (IVC312) ===//
//
// `s.extend(s)` in a loop doubles a list at every turn: 31 turns of a
// one-item list make 2^31 items, the last copy one C call of 8 GiB. The
// list may be reached under another name (`t = s; s += t`, `s += s[:]`,
// `a.extend(b); b.extend(a)`), so a list grown in place (`+=`, `extend`, a
// slice store) inside a loop is judged by what it is grown by: a display of
// fixed length adds a fixed count; anything that reads a name bound to a
// list that grows in place anywhere, directly or through the names bound
// from it, may be that list.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// Whether some read of `s` grows what it names in place (`s.extend(x)`,
/// `s[a:b] = x`), or `s += x` rebinds it.
bool growsInPlace(RuleContext &ctx, const Symbol *s) {
  if (llvm::any_of(s->bindings,
                   [](const Binding &b) { return b.kind == Binding::Kind::AugAssign; }))
    return true;
  UseIndex &uses = ctx.values.uses();
  return llvm::any_of(uses.readsOf(s), [&](const Op *read) {
    const Op *user = uses.userOf(read);
    if (!user || user->operand(0) != read)
      return false;
    if (user->is(OpKind::Attribute))
      return isOneOf(user->text, {"extend", "__iadd__", "__setitem__"});
    return user->is(OpKind::Subscript) && user->ctx == Ctx::Store && user->operand(1) &&
           user->operand(1)->is(OpKind::Slice);
  });
}

bool readsGrowingList(RuleContext &ctx, const Op *op, int depth, int &budget);

/// Whether `s` grows in place, or is bound from what reads one that does.
bool mayBeGrowingList(RuleContext &ctx, const Symbol *s, int depth, int &budget) {
  if (growsInPlace(ctx, s))
    return true;
  if (depth > 4)
    return false;
  return llvm::any_of(s->bindings, [&](const Binding &b) {
    return (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus ||
            b.kind == Binding::Kind::Loop) &&
           readsGrowingList(ctx, b.value, depth + 1, budget);
  });
}

bool readsGrowingList(RuleContext &ctx, const Op *op, int depth, int &budget) {
  if (!op || --budget < 0)
    return budget < 0; // too large to walk: assume it may
  if (op->is(OpKind::Name) && op->ctx == Ctx::Load)
    if (const Symbol *s = symbolOf(ctx, op))
      return mayBeGrowingList(ctx, s, depth, budget);
  return llvm::any_of(op->operands,
                      [&](const Op *o) { return readsGrowingList(ctx, o, depth, budget); });
}

/// A list or tuple display without `*` items: it adds a fixed count.
bool fixedLength(const Op *op) {
  return op && (op->is(OpKind::List) || op->is(OpKind::Tuple)) &&
         llvm::none_of(op->operands, [](const Op *o) { return o && o->is(OpKind::Starred); });
}

/// What `op` grows a list in place by: `s += x`, `s.extend(x)`, `s[a:b] = x`.
const Op *addedInPlace(RuleContext &ctx, const Op &op) {
  if (op.is(OpKind::AugAssign))
    return op.text == "+=" ? op.operand(1) : nullptr;
  if (op.is(OpKind::Call)) {
    const Op *callee = op.operand(0);
    bool extend = callee && callee->is(OpKind::Attribute) && callee->text == "extend" &&
                  llvm::any_of(ctx.valuesOf(callee), [](const Value &v) {
                    return v.kind == ValueKind::Method || v.kind == ValueKind::Unknown;
                  });
    return extend ? positionalArgument(op, 0) : nullptr;
  }
  if (op.is(OpKind::Assign) && op.operands.size() >= 2)
    for (size_t i = 0; i + 1 < op.operands.size(); ++i)
      if (const Op *t = op.operand(i);
          t && t->is(OpKind::Subscript) && t->operand(1) && t->operand(1)->is(OpKind::Slice))
        return op.operands.back();
  return nullptr;
}

} // namespace

bool growsByItselfInLoop(RuleContext &ctx, const Op &op) {
  const Op *added = addedInPlace(ctx, op);
  if (!added || fixedLength(added) || !inLoopOver(ctx, op, nullptr))
    return false;
  int budget = 256;
  return readsGrowingList(ctx, added, 0, budget);
}

} // namespace ivc::rules::cost
