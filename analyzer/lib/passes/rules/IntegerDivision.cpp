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
// worker.
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

bool mayTrap(RuleContext &ctx, const Op *dividend, const Op *divisor) {
  return (mayBeTensor(ctx, dividend) || mayBeTensor(ctx, divisor)) &&
         !safeDivisor(ctx, divisor) && !safeDividend(ctx, dividend);
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
