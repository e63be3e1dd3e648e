//===- InputNumbers.cpp - Numbers a trace's inputs choose (IVC312) --------===//
//
// A size the file writes down is judged by its value. A size the inputs
// choose has none to judge: a caller's value (`torch.ones(n, n)` with the
// caller's n) or an activation's contents (`int(h.sum().item())`). Either
// may be anything, so the cost rules count such a size as beyond every
// limit. A helper's parameter is chosen when a call of it passes a chosen
// number. Lengths of what exists (`len(xs)`, `h.shape[-1]`, `h.size(0)`) are
// not chosen this way: they are bounded by memory already spent.
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

bool mayBeTensor(RuleContext &ctx, const Op *op) {
  return llvm::any_of(ctx.valuesOf(op), [](const Value &v) {
    return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
  });
}

bool chosen(RuleContext &ctx, const Op *op, int depth);

bool anyChosen(RuleContext &ctx, std::span<Op *const> ops, int depth) {
  return llvm::any_of(ops, [&](const Op *o) {
    return o && chosen(ctx, o->is(OpKind::Keyword) || o->is(OpKind::Starred) ? o->operand(0) : o,
                       depth);
  });
}

bool chosenCall(RuleContext &ctx, const Op &call, int depth) {
  std::span<Op *const> args = call.operands.subspan(1);
  for (const Value &v : ctx.valuesOf(call.operand(0))) {
    if (readsContents(v))
      return true;
    std::string_view f = v.text;
    bool builtin = v.kind == ValueKind::Builtin;
    bool math = v.kind == ValueKind::Qualified && f.starts_with("math.");
    // A number made of a tensor's value, or of a chosen number.
    if ((builtin && isOneOf(f, {"int", "float", "round", "abs", "sum", "max", "range"})) ||
        (math && isOneOf(f, {"math.ceil", "math.floor", "math.trunc", "math.prod", "math.fsum"}))) {
      if (anyChosen(ctx, args, depth))
        return true;
      if (!isOneOf(f, {"max", "range", "sum"}) && !args.empty() && mayBeTensor(ctx, args[0]))
        return true;
    }
    // `min(n, 4096)` is capped by the 4096.
    if (builtin && f == "min" && !args.empty() &&
        llvm::all_of(args, [&](const Op *a) { return chosen(ctx, a, depth); }))
      return true;
  }
  return false;
}

/// Whether a call of the file's function gives its parameter `param` a
/// chosen number (an unpacked `*xs` holding one included), or its default
/// is one. Calls out of sight (`map(f, ns)`) are not followed.
bool parameterChosen(RuleContext &ctx, const Op &param, int depth) {
  std::vector<const Op *> passed{param.operand(0)};
  passedTo(ctx, param, passed);
  return llvm::any_of(passed, [&](const Op *a) {
    return a && chosen(ctx, a->is(OpKind::Starred) || a->is(OpKind::KwSplat) ? a->operand(0) : a,
                       depth);
  });
}

bool chosen(RuleContext &ctx, const Op *op, int depth) {
  if (!op || depth > 8)
    return false;
  switch (op->kind) {
  case OpKind::Name: {
    if (ctx.values.fromCaller(op))
      return true;
    const Symbol *s = symbolOf(ctx, op);
    if (!s || s->bindings.size() > 8)
      return false;
    // Any binding's value (an unpacked one's whole value; a loop's
    // iterable), or what calls pass a parameter.
    return llvm::any_of(s->bindings, [&](const Binding &b) {
      if (b.kind == Binding::Kind::Param && b.site)
        return parameterChosen(ctx, *b.site, depth + 1);
      return b.value && b.value != op &&
             (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::AugAssign ||
              b.kind == Binding::Kind::Walrus || b.kind == Binding::Kind::Loop) &&
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
  case OpKind::UnaryOp: case OpKind::NamedExpr:
    return chosen(ctx, op->operand(0), depth + 1);
  case OpKind::IfExp:
    return chosen(ctx, op->operand(1), depth + 1) || chosen(ctx, op->operand(2), depth + 1);
  case OpKind::Subscript: // an item of chosen numbers (`t.tolist()[0]`)
    return chosen(ctx, op->operand(0), depth + 1);
  case OpKind::List: case OpKind::Tuple:
    return anyChosen(ctx, op->operands, depth + 1);
  default:
    return false;
  }
}

} // namespace

bool chosenByInputs(RuleContext &ctx, const Op *op) { return chosen(ctx, op, 0); }

} // namespace ivc::rules::cost
