//===- SizeBounds.cpp - The most a size may be (IVC312) ------------------===//
//
// A size is fine only when ivc sees how large it may be: a number it
// evaluates or caps (`n % 4096`, `min(n, 64)`), or a length of something
// that exists (an activation's shape, the model's configuration), and small
// arithmetic of those, through names, range loops and helpers' parameters.
// Every other size may be what the inputs choose (InputNumbers.cpp), however
// it got there, and counts as beyond every limit: the cost rules deny by
// default.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// What a size may be at most: a number, or a length of something that
/// exists whose number ivc does not know (`real`: an activation's shape).
struct Bound {
  double most = 0;
  bool real = false;
};

/// The larger of two bounds.
Bound larger(Bound a, Bound b) { return {std::max(a.most, b.most), a.real || b.real}; }

/// The bound of `t.shape`, `t.size(i)` or `len(t)` of a tensor that is not
/// the caller's: the factory's shape when one made it, else a real length.
Bound lengthOf(RuleContext &ctx, const Op *t) {
  if (std::optional<std::vector<double>> shape = factoryShape(ctx, t))
    return {shape->empty() ? 1 : *std::max_element(shape->begin(), shape->end())};
  return {0, true};
}

/// The tensor whose shape `op` is (`t.shape`, `t.size()`), when it is not
/// the caller's, or null.
const Op *shapeOwner(RuleContext &ctx, const Op *op) {
  if (op && op->is(OpKind::Call) && op->operands.size() == 1)
    op = op->operand(0); // `t.size()`
  if (!op || !op->is(OpKind::Attribute) || !isOneOf(op->text, {"shape", "size"}))
    return nullptr;
  const Op *t = op->operand(0);
  return t && !callersShape(ctx, t) && !derivedFromInputs(ctx, t) ? t : nullptr;
}

std::optional<Bound> bound(RuleContext &ctx, const Op *op, int depth);

/// The larger bound of every op in `ops`, or nothing when one has none.
std::optional<Bound> largest(RuleContext &ctx, llvm::ArrayRef<const Op *> ops, int depth) {
  if (ops.empty())
    return std::nullopt;
  Bound all;
  for (const Op *o : ops) {
    std::optional<Bound> b = bound(ctx, o, depth);
    if (!b)
      return std::nullopt;
    all = larger(all, *b);
  }
  return all;
}

/// What a name may be at most: the largest of what every binding gives it.
std::optional<Bound> nameBound(RuleContext &ctx, const Op *name, int depth) {
  const Symbol *s = symbolOf(ctx, name);
  if (!s || s->bindings.empty() || s->bindings.size() > 8 || ctx.values.fromCaller(name))
    return std::nullopt;
  Bound all;
  for (const Binding &b : s->bindings) {
    std::optional<Bound> one;
    if (b.kind == Binding::Kind::Param && b.site) {
      std::vector<const Op *> passed;
      if (passedTo(ctx, *b.site, passed))
        one = largest(ctx, passed, depth + 1);
    } else if (b.kind == Binding::Kind::Loop && b.value) {
      // `for i in range(a, b)`: below the larger end; a display's items.
      const Op *it = b.value;
      if (isRangeCall(ctx, it))
        one = largest(ctx, positionalArguments(*it), depth + 1);
      else if (it->is(OpKind::List) || it->is(OpKind::Tuple))
        one = largest(ctx, std::vector<const Op *>(it->operands.begin(), it->operands.end()),
                      depth + 1);
    } else if ((b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus) && b.value &&
               b.value != name) {
      if (b.path.empty())
        one = bound(ctx, b.value, depth + 1);
      else if (const Op *t = shapeOwner(ctx, b.value)) // `b, t, _ = h.shape`
        one = lengthOf(ctx, t);
    }
    if (!one)
      return std::nullopt;
    all = larger(all, *one);
  }
  return all;
}

std::optional<Bound> callBound(RuleContext &ctx, const Op &call, int depth) {
  const Op *callee = call.operand(0);
  std::vector<const Op *> args = positionalArguments(call);
  for (const Value &v : ctx.valuesOf(callee)) {
    std::string_view f = v.text;
    bool builtin = v.kind == ValueKind::Builtin;
    if (v.kind == ValueKind::Method && callee->is(OpKind::Attribute) &&
        anyTensor(ctx, callee->operand(0)) && isOneOf(f, {"size", "numel", "dim", "nelement"})) {
      const Op *t = callee->operand(0);
      if (callersShape(ctx, t) || derivedFromInputs(ctx, t))
        return std::nullopt;
      Bound b = lengthOf(ctx, t);
      if (f == "numel" || f == "nelement") // the product, not one dimension
        if (std::optional<std::vector<double>> shape = factoryShape(ctx, t)) {
          b.most = 1;
          for (double d : *shape)
            b.most *= d;
        }
      return b;
    }
    if (builtin && f == "len" && args.size() == 1) {
      if (std::optional<double> n = iterableLength(ctx, args[0]))
        return Bound{*n};
      if (const Op *t = anyTensor(ctx, args[0]) ? args[0] : nullptr)
        return lengthOf(ctx, t);
      // Of what exists (not the caller's: checked before); a range or a
      // repetition made here may be any length (`len(range(n))`).
      const Op *arg = valueBehindNames(ctx, args[0]);
      if (arg && (arg->is(OpKind::Call) || arg->is(OpKind::BinaryOp)))
        return std::nullopt;
      return Bound{0, true};
    }
    if (builtin && f == "min") { // capped by any number among them
      std::optional<Bound> capped;
      for (const Op *a : args)
        if (std::optional<Bound> b = bound(ctx, a, depth + 1); b && !b->real)
          capped = capped ? Bound{std::min(capped->most, b->most)} : *b;
      return capped ? capped : largest(ctx, args, depth + 1);
    }
    if ((builtin && isOneOf(f, {"max", "int", "abs", "round"})) ||
        (v.kind == ValueKind::Qualified && isOneOf(f, {"math.ceil", "math.floor"})))
      return largest(ctx, args, depth + 1);
  }
  return std::nullopt;
}

std::optional<Bound> binaryBound(RuleContext &ctx, const Op &op, int depth) {
  std::string_view o = op.text;
  Magnitude right = Sizer(ctx).of(op.operand(1));
  if ((o == "%" || o == "&") && right.value) // below the constant
    return Bound{std::fabs(double(*right.value))};
  if (o == ">>")
    return bound(ctx, op.operand(0), depth + 1);
  if (o == "//") { // by an integer: no larger (by 0.001, a thousand times)
    std::optional<Bound> a = bound(ctx, op.operand(0), depth + 1);
    if (!a || !right.isInt())
      return std::nullopt;
    return Bound{std::max(a->most, 1.0), a->real};
  }
  if (o == "/") { // by at least 1: no larger
    std::optional<double> d = numberValue(ctx, op.operand(1));
    return d && std::fabs(*d) >= 1 ? bound(ctx, op.operand(0), depth + 1) : std::nullopt;
  }
  std::optional<Bound> a = bound(ctx, op.operand(0), depth + 1);
  std::optional<Bound> b = bound(ctx, op.operand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  // A real length grows by a small number at most: `h.shape[1] * 2**40`
  // is no length of anything.
  auto realWith = [](const Bound &x, const Bound &y, double allowed) -> std::optional<Bound> {
    if (x.real && y.real)
      return Bound{0, true};
    const Bound &number = x.real ? y : x;
    return number.most <= allowed ? std::optional<Bound>(Bound{0, true}) : std::nullopt;
  };
  if (o == "+" || o == "-")
    return a->real || b->real ? realWith(*a, *b, MaxTensorElements) : Bound{a->most + b->most};
  if (o == "*")
    return a->real || b->real ? realWith(*a, *b, double(1 << 16)) : Bound{a->most * b->most};
  // A power of a base below 1 grows with a negative exponent (`0.001 **
  // -3`); of an integer it does not.
  std::optional<double> exponent = numberValue(ctx, op.operand(1));
  if (o == "**" && !a->real && !b->real && b->most <= 64 &&
      (Sizer(ctx).of(op.operand(0)).isInt() || (exponent && *exponent >= 0)))
    return Bound{std::pow(std::max(a->most, 1.0), b->most)};
  return std::nullopt;
}

std::optional<Bound> bound(RuleContext &ctx, const Op *op, int depth) {
  if (!op || depth > 8)
    return std::nullopt;
  Magnitude m = Sizer(ctx).of(op);
  if (m.value)
    return Bound{std::fabs(double(*m.value))};
  if (std::optional<double> f = floatLiteral(valueBehindNames(ctx, op)))
    return Bound{std::fabs(*f)};
  if (chosenByInputs(ctx, op))
    return std::nullopt;
  switch (op->kind) {
  case OpKind::Name:
    return nameBound(ctx, op, depth);
  case OpKind::Subscript: // `h.shape[-1]`, `h.shape[:2]`
    if (const Op *t = shapeOwner(ctx, op->operand(0)))
      return lengthOf(ctx, t);
    return std::nullopt;
  case OpKind::Attribute: // `h.shape`; the model's configuration (`model.config.n_embd`)
    if (const Op *t = shapeOwner(ctx, op))
      return lengthOf(ctx, t);
    if (llvm::all_of(ctx.valuesOf(op), [](const Value &v) { return v.kind == ValueKind::Envoy; }))
      return Bound{0, true};
    return std::nullopt;
  case OpKind::Starred: // `*h.shape[:-1]`
  case OpKind::UnaryOp:
    return bound(ctx, op->operand(0), depth + 1);
  case OpKind::Call:
    return callBound(ctx, *op, depth + 1);
  case OpKind::BinaryOp:
    return binaryBound(ctx, *op, depth);
  case OpKind::IfExp:
    return largest(ctx, {op->operand(1), op->operand(2)}, depth + 1);
  case OpKind::ListComp: case OpKind::SetComp: case OpKind::GeneratorExp:
    // Its items: `max(len(n) for n in names)`.
    for (const Region &r : op->regions)
      for (const Op *c : r.ops)
        if (c->is(OpKind::CompYield))
          return bound(ctx, c->operand(0), depth + 1);
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<double> sizeBound(RuleContext &ctx, const Op *op) {
  if (chosenByInputs(ctx, op))
    return std::nullopt;
  if (Sizer(ctx).of(op).kind == Magnitude::Float)
    return 0.0; // a float is no size at all (a TypeError), nor a number of anything
  std::optional<Bound> b = bound(ctx, op, 0);
  if (!b)
    return std::nullopt;
  return b->real ? 0.0 : b->most;
}

Magnitude countBound(RuleContext &ctx, const Op *op) {
  std::optional<Bound> b = chosenByInputs(ctx, op) ? std::nullopt : bound(ctx, op, 0);
  if (!b || b->most >= 9.2e18)
    return {};
  return b->real ? Magnitude{Magnitude::Length, 48, std::nullopt}
                 : Magnitude::integer(int64_t(b->most));
}

} // namespace ivc::rules::cost
