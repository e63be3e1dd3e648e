//===- InputNumbers.cpp - Numbers a trace's inputs choose (IVC312) --------===//
//
// A size the file writes down is judged by its value. A size the inputs
// choose has none to judge: a caller's value (`torch.ones(n, n)` with the
// caller's n) or an activation's contents (`int(h.sum().item())`). Either
// may be anything, so the cost rules count such a size as beyond every
// limit. A helper's parameter is chosen when a call of it passes a chosen
// number, or when it is handed on. Lengths of what exists (`len(xs)`,
// `h.shape[-1]`, `h.size(0)` of an activation) are not chosen this way: they
// are bounded by memory already spent; a caller's tensor may be 2^40 by 0.
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

/// Whether the shape of the tensor `t` is the caller's: a tensor the caller
/// gave may be 2^40 by 0 and hold nothing; an activation's shape is the
/// model's.
bool shapeChosen(RuleContext &ctx, const Op *t) {
  return t->is(OpKind::Name) &&
         (ctx.values.fromCaller(t) ||
          ctx.values.scopes().resolve(t).kind == NameResolution::Kind::Undefined);
}

bool anyChosen(RuleContext &ctx, std::span<Op *const> ops, int depth) {
  return llvm::any_of(ops, [&](const Op *o) {
    return o && chosen(ctx, o->is(OpKind::Keyword) || o->is(OpKind::Starred) ? o->operand(0) : o,
                       depth);
  });
}

/// Whether `op` is chosen or a tensor, whose value is data: a tensor given
/// where a number goes (`torch.zeros(s.long())`, `max(s.long(), 1)`).
bool valueChosen(RuleContext &ctx, const Op *op, int depth) {
  return op && (mayBeTensor(ctx, op) || chosen(ctx, op, depth));
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
      bool tensor = self && mayBeTensor(ctx, self);
      if (tensor ? shapeChosen(ctx, self) : chosen(ctx, self, depth))
        return true;
    }
    if (builtin && f == "len" && args.size() == 1 && mayBeTensor(ctx, args[0])) {
      if (shapeChosen(ctx, args[0]))
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
  if (!passedTo(ctx, param, passed))
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
    if (ctx.values.fromCaller(op))
      return true;
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
    return base && mayBeTensor(ctx, base) ? shapeChosen(ctx, base)
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
  return t && !shapeChosen(ctx, t) && !chosen(ctx, t, 0) ? t : nullptr;
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
        mayBeTensor(ctx, callee->operand(0)) && isOneOf(f, {"size", "numel", "dim", "nelement"})) {
      const Op *t = callee->operand(0);
      if (shapeChosen(ctx, t) || chosen(ctx, t, 0))
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
      if (const Op *t = mayBeTensor(ctx, args[0]) ? args[0] : nullptr)
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
  if (o == "//" || o == ">>")
    return bound(ctx, op.operand(0), depth + 1);
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
  if (o == "**" && !a->real && !b->real && b->most <= 64)
    return Bound{std::pow(a->most, b->most)};
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
  if (valueChosen(ctx, op, depth))
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
  default:
    return std::nullopt;
  }
}

} // namespace

bool chosenByInputs(RuleContext &ctx, const Op *op) { return valueChosen(ctx, op, 0); }

std::optional<double> sizeBound(RuleContext &ctx, const Op *op) {
  if (Sizer(ctx).of(op).kind == Magnitude::Float)
    return 0.0; // a float is no size at all (a TypeError), nor a number of anything
  if (chosenByInputs(ctx, op))
    return std::nullopt;
  std::optional<Bound> b = bound(ctx, op, 0);
  if (!b)
    return std::nullopt;
  return b->real ? 0.0 : b->most;
}

} // namespace ivc::rules::cost
