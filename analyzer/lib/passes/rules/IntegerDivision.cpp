//===- IntegerDivision.cpp - Tensor division that may trap ---------------===//
//
// torch's CPU kernels divide integer tensors with the machine's division,
// and the most negative int32 or int64 divided by -1 traps: SIGFPE kills the
// server (`t // -1`, `t % d`, `torch.fmod(t, d)`,
// `t.div(d, rounding_mode="floor")`, `-2**63 // t`). A FAST mediator may
// divide where a tensor may take part only when ivc shows that the divisor
// is not -1 (a constant, a float) or that the dividend is a number no
// integer tensor holds at its minimum. Anything else is IVC307
// (`integer-division`): it runs in a worker, where a trap ends only the
// worker. Indices divided by a count (`i // h.shape[-1]`, unravelling an
// argmax) stay FAST: an int64 tensor divided by what is never negative.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules {

using namespace ir;

namespace {

constexpr std::string_view Category = "integer-division: the minimum by -1 traps";

bool mayBeTensor(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return vs.empty() || llvm::any_of(vs, [](const Value &v) { return mayHoldTensor(v.kind); });
}

/// A divisor that is not -1 as an int64 or an int32: a constant whose low
/// 32 bits are not all ones (torch wraps a Python int into an int32 tensor's
/// type: `t // (2**32 - 1)` divides by -1), or a float (true division's
/// rounding, no trap). A length is not enough: `len(range(2**32 - 1))`.
bool safeDivisor(RuleContext &ctx, const Op *op) {
  cost::Magnitude m = cost::Sizer(ctx).of(op);
  return m.kind == cost::Magnitude::Float || (m.value && uint32_t(*m.value) != UINT32_MAX);
}

/// A dividend no integer tensor holds at its minimum, even wrapped into an
/// int32 (`2**31 // t`): a float, or a constant int32 other than the minimum.
bool safeDividend(RuleContext &ctx, const Op *op) {
  cost::Magnitude m = cost::Sizer(ctx).of(op);
  return m.kind == cost::Magnitude::Float ||
         (m.value && *m.value > INT32_MIN && *m.value <= INT32_MAX);
}

/// Whether `f` always returns (values, indices): `t.topk(k)`, `t.sort()`.
/// (`torch.max(a, b)` is a tensor of their dtype, which unpacks too.)
bool returnsIndicesSecond(std::string_view f) {
  return isOneOf(f, {"topk", "sort", "kthvalue", "mode", "cummax", "cummin"});
}

/// Whether `f` returns a namedtuple with `indices` when it returns one.
bool hasIndices(std::string_view f) {
  return returnsIndicesSecond(f) || isOneOf(f, {"max", "min", "median", "nanmedian"});
}

bool isTensor(ValueKind k) { return k == ValueKind::Tensor || k == ValueKind::Activation; }

/// The one method of a tensor, or torch function, that `call` calls, by its
/// bare name (`t.argmax`, `torch.argmax`), or "". A name rebound to a view
/// of itself (`q = q.view(...)`) may be an activation or a tensor: the
/// method is the same.
std::string_view tensorFunction(RuleContext &ctx, const Op *call) {
  if (!call || !call->is(OpKind::Call))
    return {};
  auto named = [](const Value &v) -> std::string_view {
    if (v.kind == ValueKind::Method)
      return isTensor(v.receiver) ? v.text : std::string_view();
    llvm::StringRef name(v.text.data(), v.text.size());
    if (v.kind == ValueKind::Qualified &&
        (name.consume_front("torch.Tensor.") || name.consume_front("torch.")))
      return std::string_view(name.data(), name.size());
    return {};
  };
  const ValueSet &callee = ctx.valuesOf(call->operand(0));
  std::string_view f = callee.empty() ? std::string_view() : named(callee[0]);
  if (!llvm::all_of(callee, [&](const Value &v) { return named(v) == f; }))
    return {};
  return f;
}

/// Whether `op` is a tensor's shape: `t.shape` or `t.size()`, through names.
bool isShape(RuleContext &ctx, const Op *op) {
  op = valueBehindNames(ctx, op);
  if (op && op->is(OpKind::Attribute))
    return op->text == "shape" && cost::allTensors(ctx, op->operand(0));
  return tensorFunction(ctx, op) == "size" && op->operands.size() == 1;
}

/// A count, never negative: `len(x)`, or a tensor's `.shape[i]`, `.size(i)`
/// or `.numel()`, or a name unpacked from its shape (`H, Q, K = t.shape`).
bool nonNegativeCount(RuleContext &ctx, const Op *op) {
  if (const Symbol *s = cost::symbolOf(ctx, op);
      s && !s->bindings.empty() && !ctx.values.fromCaller(op) &&
      llvm::all_of(s->bindings, [&](const Binding &b) {
        return b.kind == Binding::Kind::Assign && b.path.size() == 1 && isShape(ctx, b.value);
      }))
    return true;
  op = valueBehindNames(ctx, op);
  if (!op)
    return false;
  // Sums and products of counts (Python ints, never wrapped).
  if (op->is(OpKind::BinaryOp) && isOneOf(op->text, {"*", "+"}))
    return nonNegativeCount(ctx, op->operand(0)) && nonNegativeCount(ctx, op->operand(1));
  if (op->is(OpKind::Call)) {
    const ValueSet &callee = ctx.valuesOf(op->operand(0));
    if (!callee.empty() && llvm::all_of(callee, [](const Value &v) {
          return v.kind == ValueKind::Builtin && v.text == "len";
        }))
      return true;
  }
  if (op->is(OpKind::Subscript))
    return isShape(ctx, op->operand(0));
  std::string_view f = tensorFunction(ctx, op);
  return f == "numel" || (f == "size" && positionalArgument(*op, 0));
}

/// An int64 tensor whatever it holds now (in-place updates keep a tensor's
/// dtype): indices (`t.argmax()`, `t.topk(k).indices`, `_, i = t.max(-1)`),
/// `t.long()` unless `indicesOnly`, and reshapes and items of those.
bool int64Tensor(RuleContext &ctx, const Op *op, int depth = 0, bool indicesOnly = false) {
  if (!op || depth > 8)
    return false;
  if (op->is(OpKind::Name)) {
    // Every binding (trace blocks reuse names) makes one.
    const Symbol *s = cost::symbolOf(ctx, op);
    return s && !s->bindings.empty() && s->bindings.size() <= 8 && !ctx.values.fromCaller(op) &&
           llvm::all_of(s->bindings, [&](const Binding &b) {
             if (b.kind != Binding::Kind::Assign)
               return false;
             if (b.path.size() == 1 && b.path[0] == 1) // `values, indices = t.topk(k)`
               return returnsIndicesSecond(tensorFunction(ctx, b.value));
             return b.path.empty() && int64Tensor(ctx, b.value, depth + 1, indicesOnly);
           });
  }
  if (op->is(OpKind::Attribute) && op->text == "indices")
    return hasIndices(tensorFunction(ctx, op->operand(0)));
  if (op->is(OpKind::Subscript))
    return int64Tensor(ctx, op->operand(0), depth + 1, indicesOnly);
  // One divided by a count, or its remainder: int64 still, and no larger.
  if (op->is(OpKind::BinaryOp) && isOneOf(op->text, {"//", "%"}))
    return int64Tensor(ctx, op->operand(0), depth + 1, indicesOnly) &&
           nonNegativeCount(ctx, op->operand(1));
  if (std::string_view f = tensorFunction(ctx, op);
      isOneOf(f, {"argmax", "argmin", "argsort", "nonzero", "argwhere", "count_nonzero"}) ||
      (f == "long" && !indicesOnly))
    return true;
  // A reshape of one (a method of what is an int64 tensor already).
  const Op *target = op->is(OpKind::Call) ? op->operand(0) : nullptr;
  if (!target || !target->is(OpKind::Attribute) ||
      !isOneOf(target->text, {"flatten", "reshape", "squeeze", "unsqueeze", "clone", "detach",
                              "cpu", "contiguous"}))
    return false;
  const ValueSet &callee = ctx.valuesOf(target);
  return callee.size() == 1 && callee[0].kind == ValueKind::Method &&
         int64Tensor(ctx, target->operand(0), depth + 1, indicesOnly);
}

bool mayTrap(RuleContext &ctx, const Op *dividend, const Op *divisor) {
  return (mayBeTensor(ctx, dividend) || mayBeTensor(ctx, divisor)) &&
         !safeDivisor(ctx, divisor) && !safeDividend(ctx, dividend) &&
         !(int64Tensor(ctx, dividend) && nonNegativeCount(ctx, divisor));
}

void report(RuleContext &ctx, const Op &at, std::string_view suffix = "") {
  ctx.isolate(at, DiagId::UnsafeEntryPoint,
              {ctx.subject(), shortSource(ctx, at) + std::string(suffix), Category});
}

/// The division a torch function or tensor method performs: always
/// integer-capable (floor division, remainder, truncation), or `div`'s,
/// which rounds only when given a rounding mode.
enum class Division { None, Always, WithRoundingMode };

Division torchDivision(std::string_view name) {
  if (isOneOf(name, {"floor_divide", "floor_divide_", "remainder", "remainder_", "fmod", "fmod_"}))
    return Division::Always;
  if (isOneOf(name, {"div", "div_", "divide", "divide_"}))
    return Division::WithRoundingMode;
  return Division::None;
}

/// What `v` divides with, if it is one of torch's division functions or
/// methods (`torch.fmod`, `torch.Tensor.fmod`, `t.fmod`) or the operator
/// module's (`operator.mod`).
Division divisionBy(const Value &v) {
  if (v.kind == ValueKind::Method)
    return mayHoldTensor(v.receiver) ? torchDivision(v.text) : Division::None;
  if (v.kind != ValueKind::Qualified)
    return Division::None;
  llvm::StringRef name(v.text.data(), v.text.size());
  if (name.consume_front("operator."))
    return isOneOf(name, {"floordiv", "mod", "ifloordiv", "imod"}) ? Division::Always
                                                                    : Division::None;
  if (name.consume_front("torch.Tensor.") || name.consume_front("torch."))
    return torchDivision(name);
  return Division::None;
}

} // namespace

bool holdsIndices(RuleContext &ctx, const Op *op) {
  return int64Tensor(ctx, op, 0, /*indicesOnly=*/true);
}

void checkIntegerDivision(Op &op, RuleContext &ctx) {
  std::string_view o = op.text;
  if (op.is(OpKind::AugAssign))
    o = o.substr(0, o.size() - 1);
  if (o != "//" && o != "%")
    return;
  if (o == "%" && cost::isSequence(ctx, op.operand(0)))
    return; // printf-style formatting
  if (mayTrap(ctx, op.operand(0), op.operand(1)))
    report(ctx, op);
}

void checkDivisionCall(Op &call, const Value &callee, RuleContext &ctx) {
  Division division = divisionBy(callee);
  if (division == Division::None)
    return;
  if (division == Division::WithRoundingMode) {
    // `**kwargs` may carry a rounding mode.
    const Op *mode = keywordArgument(call, "rounding_mode");
    bool spread = llvm::any_of(call.operands,
                               [](const Op *a) { return a && a->is(OpKind::KwSplat); });
    if (!spread && (!mode || mode->is(OpKind::None)))
      return; // true division
  }
  // A method divides its receiver, which only an attribute call shows
  // (`f = t.fmod; f(d)` hides it).
  const Op *target = call.operand(0);
  bool method = callee.kind == ValueKind::Method;
  const Op *dividend = !method                          ? argument(call, 0, "input")
                       : target->is(OpKind::Attribute) ? target->operand(0)
                                                        : nullptr;
  const Op *divisor = argument(call, method ? 0 : 1, "other");
  if (!dividend || !divisor || mayTrap(ctx, dividend, divisor))
    report(ctx, call);
}

bool checkDivisionReference(Op &op, const Value &v, RuleContext &ctx) {
  if (divisionBy(v) == Division::None)
    return false;
  report(ctx, op, " as a value");
  return true;
}

} // namespace ivc::rules
