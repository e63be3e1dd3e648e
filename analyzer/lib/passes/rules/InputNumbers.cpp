//===- InputNumbers.cpp - Numbers a trace's inputs choose (IVC312) --------===//
//
// A size the file writes down is judged by its value. A size the inputs
// choose has none to judge: a caller's value (`torch.ones(n, n)` with the
// caller's n) or an activation's contents (`int(h.sum().item())`). Either
// may be anything, so the cost rules count such a size as beyond every
// limit. A helper's parameter is chosen when a call of it passes a chosen
// number, or when it is handed on. An activation's shape is the model's,
// not chosen; a caller's tensor's is (it may be 2^40 by 0). What is not
// chosen is not thereby bounded: SizeBounds.cpp says how large it may be.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// Whether `v` reads a tensor's contents into Python numbers (`t.item()`,
/// `t.tolist()`).
bool readsContents(const Value &v) {
  return v.kind == ValueKind::Method &&
         (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation) &&
         isOneOf(v.text, {"item", "tolist"});
}

bool chosen(RuleContext &ctx, const Op *op, int depth);

bool anyChosen(RuleContext &ctx, std::span<Op *const> ops, int depth) {
  return llvm::any_of(ops, [&](const Op *o) {
    return o && chosen(ctx, o->is(OpKind::Keyword) || o->is(OpKind::Starred) ? o->operand(0) : o,
                       depth);
  });
}

/// Whether `op` is chosen or a tensor, whose value is data: a tensor given
/// where a number goes (`torch.zeros(s.long())`, `max(s.long(), 1)`).
bool valueChosen(RuleContext &ctx, const Op *op, int depth) {
  return op && (anyTensor(ctx, op) || chosen(ctx, op, depth));
}

bool chosenCall(RuleContext &ctx, const Op &call, int depth) {
  std::span<Op *const> args = call.operands.subspan(1);
  for (const Value &v : ctx.valuesOf(call.operand(0))) {
    if (readsContents(v))
      return true;
    std::string_view f = v.text;
    bool builtin = v.kind == ValueKind::Builtin;
    // What a chosen value's methods return (`cfg.get("n")`, `cfg.pop()`);
    // a tensor's (`t.size(0)`, `t.numel()`) follow its shape.
    const Op *callee = call.operand(0);
    if (v.kind == ValueKind::Method && callee && callee->is(OpKind::Attribute)) {
      const Op *self = callee->operand(0);
      bool tensor = self && anyTensor(ctx, self);
      if (tensor ? callersShape(ctx, self) : chosen(ctx, self, depth))
        return true;
    }
    if (builtin && f == "len" && args.size() == 1 && anyTensor(ctx, args[0])) {
      if (callersShape(ctx, args[0]))
        return true;
      continue;
    }
    // A number or item made of a tensor's value, or of chosen values.
    bool numeric = (builtin && isOneOf(f, {"int", "float", "round", "abs"})) ||
                   (v.kind == ValueKind::Qualified &&
                    isOneOf(f, {"math.ceil", "math.floor", "math.trunc", "numpy.int64",
                                "numpy.int32", "numpy.uint64", "numpy.intp", "operator.index"}));
    if ((numeric || (builtin && isOneOf(f, {"sum", "max", "range", "len", "str", "list", "tuple",
                                            "sorted", "next", "iter", "reversed"})) ||
         (v.kind == ValueKind::Qualified && isOneOf(f, {"math.prod", "math.fsum"}))) &&
        llvm::any_of(args, [&](const Op *a) {
          return a && valueChosen(ctx, a->is(OpKind::Keyword) || a->is(OpKind::Starred)
                                           ? a->operand(0) : a, depth);
        }))
      return true;
    // `min(n, 4096)` is capped by the 4096.
    if (builtin && f == "min" && !args.empty() &&
        llvm::all_of(args, [&](const Op *a) { return valueChosen(ctx, a, depth); }))
      return true;
  }
  return false;
}

/// Whether a call of the file's function gives its parameter `param` a
/// chosen number (an unpacked `*xs` or a display holding one included), or
/// its default is one. A function called out of sight (`map(f, ns)`, `g =
/// f`) may be given anything.
bool parameterChosen(RuleContext &ctx, const Op &param, int depth) {
  std::vector<const Op *> passed{param.operand(0)};
  if (!ctx.values.argumentsOf(param, passed))
    return true;
  return llvm::any_of(passed, [&](const Op *a) {
    return a && chosen(ctx, a->is(OpKind::Starred) || a->is(OpKind::KwSplat) ? a->operand(0) : a,
                       depth);
  });
}

/// The value an augmented assignment `n op= value` adds to its target.
const Op *augmentedValue(RuleContext &ctx, const Binding &b) {
  const Op *stmt = b.site ? ctx.values.uses().userOf(b.site) : nullptr;
  return stmt && stmt->is(OpKind::AugAssign) ? stmt->operand(1) : nullptr;
}

bool chosen(RuleContext &ctx, const Op *op, int depth) {
  if (!op || depth > 8)
    return false;
  switch (op->kind) {
  case OpKind::Name: {
    if (ctx.values.fromCaller(op)) // unless a runtime checks its size
      return !ctx.values.callerNumberBound(op);
    NameResolution r = ctx.values.scopes().resolve(op);
    if (r.kind == NameResolution::Kind::Undefined)
      return true; // the caller's, whatever the file says
    const Symbol *s = r.symbol;
    if (!s || s->bindings.size() > 8)
      return false;
    // Any binding's value (an unpacked one's whole value; a loop's
    // iterable), what an augmented assignment adds, or what calls pass a
    // parameter.
    return llvm::any_of(s->bindings, [&](const Binding &b) {
      if (b.kind == Binding::Kind::Param && b.site)
        return parameterChosen(ctx, *b.site, depth + 1);
      if (b.kind == Binding::Kind::AugAssign)
        return chosen(ctx, augmentedValue(ctx, b), depth + 1);
      return b.value && b.value != op &&
             (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus ||
              b.kind == Binding::Kind::Loop) &&
             chosen(ctx, b.value, depth + 1);
    });
  }
  case OpKind::Call:
    return chosenCall(ctx, *op, depth + 1);
  case OpKind::BinaryOp: {
    // A remainder or mask by a constant is bounded by it; a right shift by
    // what it shifts.
    if ((op->text == "%" || op->text == "&") && numberValue(ctx, op->operand(1)))
      return false;
    if (op->text == ">>")
      return chosen(ctx, op->operand(0), depth + 1);
    return anyChosen(ctx, op->operands, depth + 1);
  }
  case OpKind::Attribute: { // `cfg.n`, `t.shape`
    const Op *base = op->operand(0);
    return base && anyTensor(ctx, base) ? callersShape(ctx, base)
                                          : chosen(ctx, base, depth + 1);
  }
  case OpKind::UnaryOp: case OpKind::NamedExpr: case OpKind::Starred:
    return chosen(ctx, op->operand(0), depth + 1);
  case OpKind::IfExp:
    return chosen(ctx, op->operand(1), depth + 1) || chosen(ctx, op->operand(2), depth + 1);
  case OpKind::Subscript: // an item of chosen values (`t.tolist()[0]`)
    return chosen(ctx, op->operand(0), depth + 1);
  case OpKind::List: case OpKind::Tuple: case OpKind::Set: case OpKind::Dict:
  case OpKind::BoolOp:
    return anyChosen(ctx, op->operands, depth + 1);
  default:
    return false;
  }
}

} // namespace

bool chosenByInputs(RuleContext &ctx, const Op *op) { return valueChosen(ctx, op, 0); }

bool derivedFromInputs(RuleContext &ctx, const Op *op) { return chosen(ctx, op, 0); }

bool callersShape(RuleContext &ctx, const Op *t) {
  return t->is(OpKind::Name) && !ctx.values.callerTensorBound(t) &&
         (ctx.values.fromCaller(t) ||
          ctx.values.scopes().resolve(t).kind == NameResolution::Kind::Undefined);
}

} // namespace ivc::rules::cost
