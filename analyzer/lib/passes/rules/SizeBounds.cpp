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
// A limit keeps the number and the lengths apart (`max(len(h), 2**30)` is
// 2^30 however short h is), and counts how many times the lengths are
// taken: a length of what exists times 2^16 is as far as that goes
// (`h.shape[1] * 2**16 * 2**8` is not). A tensor's dimensions are lengths
// only when memory pays for them: one the mediator shapes (`torch.zeros(0,
// n).T`, `h.expand(n, -1)`) may be as large as the numbers that shape it.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

SizeLimit plus(SizeLimit a, SizeLimit b) { return {a.most + b.most, a.lengths + b.lengths}; }

SizeLimit times(SizeLimit a, SizeLimit b) {
  // A product of lengths is a length (the threat model leaves them be).
  return {a.most * b.most, a.most * b.lengths + a.lengths * b.most + a.lengths * b.lengths};
}

double judged(SizeLimit l) { return l.lengths > MaxLengthFactor ? HUGE_VAL : l.most; }

namespace {

constexpr SizeLimit Length{0, 1};

SizeLimit larger(SizeLimit a, SizeLimit b) {
  return {std::max(a.most, b.most), std::max(a.lengths, b.lengths)};
}

std::optional<SizeLimit> bound(RuleContext &ctx, const Op *op, int depth);
std::optional<SizeLimit> dimsOf(RuleContext &ctx, const Op *t, int depth);

/// Whether every value `op` may be is an activation or the model's.
bool activationValued(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    return v.kind == ValueKind::Activation || v.kind == ValueKind::Envoy;
  });
}
std::optional<SizeLimit> callDims(RuleContext &ctx, const Op &call, int depth);
std::optional<SizeLimit> nameDims(RuleContext &ctx, const Op *t, int depth);

/// The larger limit of every op in `ops`, or nothing when one has none.
std::optional<SizeLimit> largest(RuleContext &ctx, llvm::ArrayRef<const Op *> ops, int depth,
                                 std::optional<SizeLimit> (*of)(RuleContext &, const Op *,
                                                                int) = bound) {
  if (ops.empty())
    return std::nullopt;
  SizeLimit all;
  for (const Op *o : ops) {
    std::optional<SizeLimit> b = of(ctx, o, depth);
    if (!b)
      return std::nullopt;
    all = larger(all, *b);
  }
  return all;
}

/// What `op` in a tensor's making adds to its dimensions: a tensor its own,
/// a number (a size, a count, a dim index) itself, a display of either all
/// of its items, a string, a dtype, None or a bool nothing.
std::optional<SizeLimit> madeWith(RuleContext &ctx, const Op *op, int depth) {
  if (op && (op->is(OpKind::Keyword) || op->is(OpKind::Starred)))
    op = op->operand(0);
  if (!op || depth > 12)
    return std::nullopt;
  if (anyTensor(ctx, op))
    return dimsOf(ctx, op, depth + 1);
  const Op *v = valueBehindNames(ctx, op);
  if (v && (v->is(OpKind::List) || v->is(OpKind::Tuple))) {
    SizeLimit all;
    for (const Op *item : v->operands)
      if (std::optional<SizeLimit> l = madeWith(ctx, item, depth + 1))
        all = plus(all, *l);
      else
        return std::nullopt;
    return all;
  }
  if (v && v->is(OpKind::Attribute) && isOneOf(v->text, {"dtype", "device", "layout"}))
    return SizeLimit{};
  const ValueSet &vs = ctx.valuesOf(op);
  if (!vs.empty() && llvm::all_of(vs, [](const Value &x) {
        return x.kind == ValueKind::Str || x.kind == ValueKind::NoneValue ||
               x.kind == ValueKind::Bool || x.kind == ValueKind::Qualified;
      }))
    return SizeLimit{};
  if (std::optional<SizeLimit> n = bound(ctx, op, depth + 1))
    return SizeLimit{std::max(n->most, 1.0), n->lengths};
  return std::nullopt;
}

/// Whether the tensor method or torch function `f` makes a tensor no wider
/// than its one tensor argument, whatever numbers it is given (dims, flags,
/// k): elementwise functions, reductions, and moves of its dimensions
/// (flatten merges them, which the span already counts).
bool keepsSpan(std::string_view f) {
  return isOneOf(f, {"abs", "neg", "exp", "log", "log1p", "sqrt", "rsqrt", "sin", "cos", "tanh",
                     "sigmoid", "relu", "gelu", "silu", "softmax", "log_softmax", "sign", "round",
                     "floor", "ceil", "clamp", "clip", "nan_to_num", "isnan", "isinf", "sum",
                     "mean", "prod", "max", "min", "amax", "amin", "argmax", "argmin", "norm",
                     "std", "var", "cumsum", "cumprod", "sort", "argsort", "topk", "transpose",
                     "permute", "t", "flatten", "squeeze", "unsqueeze", "contiguous", "clone",
                     "detach", "to", "float", "half", "double", "long", "int", "bool", "cpu",
                     "type", "pow", "square", "reciprocal", "mul", "div", "add", "sub", "split",
                     "chunk", "unbind", "narrow", "select", "roll", "flip", "tril", "triu",
                     "diagonal", "movedim", "swapaxes", "masked_fill", "where"}) ||
         f.starts_with("__");
}

/// The span of what `call` makes. The file's function: the largest of what
/// it returns. A tensor's method or a torch function that keepsSpan: its
/// tensor's. Any other: the product of its tensors' spans and of every
/// number it is given (a shape, a size, a count, a padding), broadcasting
/// and `kron` included.
std::optional<SizeLimit> callDims(RuleContext &ctx, const Op &call, int depth) {
  const Op *callee = call.operand(0);
  const ValueSet &fs = ctx.valuesOf(callee);
  if (!fs.empty() && llvm::all_of(fs, [](const Value &v) {
        return v.kind == ValueKind::UserFunction && v.op;
      })) {
    std::vector<const Op *> returned;
    for (const Value &v : fs)
      for (const Op *ret : returnsOf(*v.op))
        returned.push_back(ret->operand(0)); // a bare return: null, no bound
    return largest(ctx, returned, depth + 1, dimsOf);
  }
  if (fs.empty() || !llvm::all_of(fs, [](const Value &v) {
        return v.kind == ValueKind::Qualified ||
               (v.kind == ValueKind::Method && mayHoldTensor(v.receiver));
      }))
    return std::nullopt;
  std::string_view f = fs[0].text.substr(fs[0].text.rfind('.') + 1);
  std::vector<const Op *> parts(call.operands.begin() + 1, call.operands.end());
  // A tensor method's receiver is a tensor, whatever ivc types it as
  // (`new_zeros` takes only its dtype and device).
  const Op *receiver = callee->is(OpKind::Attribute) && fs[0].kind == ValueKind::Method &&
                               !f.starts_with("new_")
                           ? callee->operand(0)
                           : nullptr;
  if (receiver)
    parts.insert(parts.begin(), receiver);
  bool keeps = keepsSpan(f);
  // A view or reshape keeps the number of elements, which an activation
  // holds (its span is lengths alone), into dimensions that multiply to no
  // more than a length: `q.view(b, t, 12, 64)`. (An activation of an empty
  // input holds none: then its dimensions are the numbers given, which
  // must not be large.)
  if (isOneOf(f, {"view", "reshape", "view_as", "reshape_as", "unflatten"}) && !parts.empty()) {
    std::optional<SizeLimit> in = dimsOf(ctx, parts.front(), depth + 1);
    std::optional<SizeLimit> given = SizeLimit{1};
    for (auto a = parts.begin() + 1; a != parts.end() && given; ++a) {
      std::optional<SizeLimit> n = madeWith(ctx, *a, depth + 1);
      given = n ? std::optional(times(*given, *n)) : std::nullopt;
    }
    if (in && in->most == 0 && given && given->most <= MaxLengthFactor &&
        given->lengths <= MaxLengthFactor)
      return in;
    // Else its elements' number (when it has any) or the numbers given.
    if (in && given)
      return larger(*in, *given);
  }
  SizeLimit span{1};
  for (const Op *part : parts) {
    const Op *value = part && part->is(OpKind::Keyword) ? part->operand(0) : part;
    const ValueSet &vs = value ? ctx.valuesOf(value) : ValueSet();
    if (part != receiver && keeps && !vs.empty() &&
        llvm::none_of(vs, [](const Value &v) { return mayHoldTensor(v.kind); }))
      continue; // a dim, a flag, k
    std::optional<SizeLimit> d =
        part == receiver ? dimsOf(ctx, part, depth + 1) : madeWith(ctx, part, depth + 1);
    if (!d)
      return std::nullopt;
    span = times(span, *d); // two tensors broadcast: their spans multiply
  }
  return span;
}

/// The names whose dimensions are being found, with what their other
/// bindings give: `q = q.view(b, t, 12, 64)` keeps q as large as it was.
thread_local std::vector<std::pair<const Symbol *, SizeLimit>> rebinding;

/// The dimensions of a tensor name: the largest of what every binding
/// gives it (a part is no larger: `q, k, v = x.split(d)`). Bindings that
/// read the name itself must settle on a limit (`h = h.repeat(2, 1)` in a
/// loop grows without bound).
std::optional<SizeLimit> nameDims(RuleContext &ctx, const Op *t, int depth) {
  const Symbol *s = symbolOf(ctx, t);
  if (!s || s->bindings.empty())
    return std::nullopt;
  // A notebook binds `h = model...output[0]` in every trace block.
  if (s->bindings.size() > 8)
    return llvm::all_of(s->bindings, [&](const Binding &b) {
             return b.kind == Binding::Kind::Assign && b.value && !b.value->is(OpKind::Call) &&
                    !b.value->is(OpKind::Name) && activationValued(ctx, b.value);
           })
               ? std::optional(Length)
               : std::nullopt;
  for (const auto &[name, limit] : rebinding)
    if (name == s)
      return limit;
  auto dimsOfBinding = [&](const Binding &b) -> std::optional<SizeLimit> {
    if (b.kind == Binding::Kind::Param && b.site) {
      std::vector<const Op *> passed;
      if (ctx.values.argumentsOf(*b.site, passed))
        return largest(ctx, passed, depth + 1, dimsOf);
    } else if ((b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus) && b.value &&
               b.value != t) {
      return dimsOf(ctx, b.value, depth + 1);
    }
    return std::nullopt;
  };
  SizeLimit base;
  std::vector<const Binding *> selfReading;
  for (const Binding &b : s->bindings) {
    int budget = 64;
    if (b.value && reads(ctx, b.value, s, budget)) {
      selfReading.push_back(&b);
      continue;
    }
    std::optional<SizeLimit> one = dimsOfBinding(b);
    if (!one)
      return std::nullopt;
    base = larger(base, *one);
  }
  if (selfReading.size() == s->bindings.size())
    return std::nullopt;
  // A rebinding outside loops acts once, in source order (`k =
  // k.repeat_interleave(4, dim=2)` is 4 times k); those in loops must keep
  // a limit (`q = q.view(b, t, 12, 64)` with b and t of q's shape: 64 or
  // q's own), found in a few rounds or never.
  auto apply = [&](SizeLimit limit, const Binding &b) -> std::optional<SizeLimit> {
    rebinding.emplace_back(s, limit);
    std::optional<SizeLimit> one = dimsOfBinding(b);
    rebinding.pop_back();
    return one ? std::optional(larger(limit, *one)) : std::nullopt;
  };
  std::optional<SizeLimit> limit = base;
  std::vector<const Binding *> looped;
  for (const Binding *b : selfReading) {
    if (b->site && inLoopOver(ctx, *b->site, nullptr))
      looped.push_back(b);
    else if (!(limit = apply(*limit, *b)))
      return std::nullopt;
  }
  for (int round = 0; round < 3 && !looped.empty(); ++round) {
    SizeLimit next = *limit;
    for (const Binding *b : looped) {
      std::optional<SizeLimit> one = apply(next, *b);
      if (!one)
        return std::nullopt;
      next = *one;
    }
    if (next.most == limit->most && next.lengths == limit->lengths)
      return limit;
    limit = next;
  }
  return looped.empty() ? limit : std::nullopt;
}

/// Whether a configuration number of this name is one of the model's
/// dimensions, a length of what exists: not a token id, a base, an epsilon
/// (`bos_token_id` is 50256, `rope_theta` 500000).
bool isModelDimension(std::string_view name) {
  return isOneOf(name, {"n_embd", "n_layer", "n_head", "n_positions", "n_ctx", "n_inner",
                        "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
                        "num_key_value_heads", "intermediate_size", "max_position_embeddings",
                        "head_dim", "d_model", "d_ff", "d_kv", "d_head", "d_mlp", "d_vocab",
                        "num_layers", "num_heads", "n_layers", "n_heads", "ffn_dim", "embed_dim",
                        "num_experts", "num_experts_per_tok", "num_local_experts", "rotary_dim",
                        "kv_channels", "sliding_window", "num_key_value_groups"});
}

/// The most any dimension of the tensor `t` may be. An activation's or a
/// parameter's are lengths of what exists; a factory's are its numbers.
/// Anything else is bounded by how it was made (callDims), and a caller's
/// tensor's may be anything (a 2^40 by 0 tensor holds nothing) unless the
/// plan guards it (a SmallTensor, engine/CallerGuards.cpp). The bound
/// is of the span, the product of the dimensions other than 0: what one
/// dimension may become once they are merged (`torch.zeros(0, 2**15,
/// 2**15).flatten(1)` is 0 by 2^30).
std::optional<SizeLimit> dimsOf(RuleContext &ctx, const Op *t, int depth) {
  if (!t || depth > 12)
    return std::nullopt;
  if (std::optional<double> most = ctx.values.callerTensorBound(t))
    return SizeLimit{*most}; // a runtime checks it
  if (callersShape(ctx, t) || derivedFromInputs(ctx, t))
    return std::nullopt;
  if (std::optional<std::vector<double>> shape = factoryShape(ctx, t)) {
    SizeLimit span{1}; // a zero dimension makes no other smaller
    for (double d : *shape)
      span.most *= std::max(d, 1.0);
    return span;
  }
  // An activation or a parameter as the model gives it (a reshape of one
  // is the mediator's, judged by its numbers).
  if (!t->is(OpKind::Call) && !t->is(OpKind::Name) && activationValued(ctx, t))
    return Length;
  switch (t->kind) {
  case OpKind::Name:
    return nameDims(ctx, t, depth);
  case OpKind::Attribute: // `t.T`, `t.mT`
    return isOneOf(t->text, {"T", "mT", "H", "mH", "real", "imag", "data", "values", "indices"})
               ? dimsOf(ctx, t->operand(0), depth + 1)
               : std::nullopt;
  case OpKind::Subscript: { // a slice is no larger; a tensor index multiplies
    std::optional<SizeLimit> dims = dimsOf(ctx, t->operand(0), depth + 1);
    const Op *index = t->operand(1);
    std::vector<const Op *> items{index};
    if (index && index->is(OpKind::Tuple))
      items.assign(index->operands.begin(), index->operands.end());
    for (const Op *i : items)
      if (dims && i && anyTensor(ctx, i)) {
        std::optional<SizeLimit> by = dimsOf(ctx, i, depth + 1);
        dims = by ? std::optional<SizeLimit>(times(*dims, *by)) : std::nullopt;
      }
    return dims;
  }
  case OpKind::BinaryOp: // broadcasting: the spans multiply
  case OpKind::UnaryOp: {
    SizeLimit span{1};
    for (const Op *o : t->operands) {
      // A scalar, of any size, broadcasts (`h / math.sqrt(d)`); but `*` by
      // one repeats what may be a block's tuple of outputs.
      const ValueSet &vs = ctx.valuesOf(o);
      if (t->text != "*" && !vs.empty() && llvm::all_of(vs, [](const Value &v) {
            return v.kind == ValueKind::Number || v.kind == ValueKind::Bool;
          }))
        continue;
      std::optional<SizeLimit> d = madeWith(ctx, o, depth + 1);
      if (!d)
        return std::nullopt;
      span = times(span, *d);
    }
    return span;
  }
  case OpKind::Call:
    return callDims(ctx, *t, depth);
  default:
    return std::nullopt;
  }
}

/// The tensor whose shape `op` is (`t.shape`, `t.size()`), or null.
const Op *shapeOwner(const Op *op) {
  if (op && op->is(OpKind::Call) && op->operands.size() == 1)
    op = op->operand(0); // `t.size()`
  if (!op || !op->is(OpKind::Attribute) || !isOneOf(op->text, {"shape", "size"}))
    return nullptr;
  return op->operand(0);
}

/// What a name may be at most: the largest of what every binding gives it.
std::optional<SizeLimit> nameBound(RuleContext &ctx, const Op *name, int depth) {
  if (std::optional<double> most = ctx.values.callerNumberBound(name))
    return SizeLimit{*most}; // a runtime checks it
  const Symbol *s = symbolOf(ctx, name);
  if (!s || s->bindings.empty() || s->bindings.size() > 8 || ctx.values.fromCaller(name))
    return std::nullopt;
  SizeLimit all;
  for (const Binding &b : s->bindings) {
    std::optional<SizeLimit> one;
    if (b.kind == Binding::Kind::Param && b.site) {
      std::vector<const Op *> passed;
      if (ctx.values.argumentsOf(*b.site, passed))
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
      else if (const Op *t = shapeOwner(b.value)) // `b, t, _ = h.shape`
        one = dimsOf(ctx, t, depth + 1);
    }
    if (!one)
      return std::nullopt;
    all = larger(all, *one);
  }
  return all;
}

/// `len(x)`: a number ivc evaluates, a tensor's dimension, or a length of
/// what exists.
std::optional<SizeLimit> lengthOfValue(RuleContext &ctx, const Op *x, int depth) {
  if (std::optional<double> n = iterableLength(ctx, x))
    return SizeLimit{*n};
  if (lengthExists(ctx, x))
    return Length;
  return anyTensor(ctx, x) ? dimsOf(ctx, x, depth + 1) : std::nullopt;
}

std::optional<SizeLimit> callBound(RuleContext &ctx, const Op &call, int depth) {
  const Op *callee = call.operand(0);
  std::vector<const Op *> args = positionalArguments(call);
  for (const Value &v : ctx.valuesOf(callee)) {
    std::string_view f = v.text;
    bool builtin = v.kind == ValueKind::Builtin;
    if (v.kind == ValueKind::Method && callee->is(OpKind::Attribute) &&
        anyTensor(ctx, callee->operand(0)) && isOneOf(f, {"size", "numel", "dim", "nelement"})) {
      const Op *t = callee->operand(0);
      if (f == "dim")
        return SizeLimit{64};
      if (f == "numel" || f == "nelement") { // the product, not one dimension
        if (std::optional<std::vector<double>> shape = factoryShape(ctx, t)) {
          SizeLimit n{1};
          for (double d : *shape)
            n.most *= d;
          return n;
        }
      }
      return dimsOf(ctx, t, depth + 1);
    }
    if (builtin && f == "len" && args.size() == 1)
      return lengthOfValue(ctx, args[0], depth + 1);
    if (builtin && f == "min") { // capped by any number among them
      std::optional<SizeLimit> capped;
      for (const Op *a : args)
        if (std::optional<SizeLimit> b = bound(ctx, a, depth + 1); b && !b->lengths)
          capped = capped ? SizeLimit{std::min(capped->most, b->most)} : *b;
      return capped ? capped : largest(ctx, args, depth + 1);
    }
    if ((builtin && isOneOf(f, {"max", "int", "abs", "round"})) ||
        (v.kind == ValueKind::Qualified && isOneOf(f, {"math.ceil", "math.floor"})))
      return largest(ctx, args, depth + 1);
  }
  return std::nullopt;
}

std::optional<SizeLimit> binaryBound(RuleContext &ctx, const Op &op, int depth) {
  std::string_view o = op.text;
  Magnitude right = Sizer(ctx).of(op.operand(1));
  if ((o == "%" || o == "&") && right.value) // below the constant
    return SizeLimit{std::fabs(double(*right.value))};
  if (o == ">>")
    return bound(ctx, op.operand(0), depth + 1);
  if (o == "//") { // by an integer: no larger (by 0.001, a thousand times)
    std::optional<SizeLimit> a = bound(ctx, op.operand(0), depth + 1);
    if (!a || !right.isInt())
      return std::nullopt;
    return SizeLimit{std::max(a->most, 1.0), a->lengths};
  }
  if (o == "/") { // by at least 1: no larger
    std::optional<double> d = numberValue(ctx, op.operand(1));
    return d && std::fabs(*d) >= 1 ? bound(ctx, op.operand(0), depth + 1) : std::nullopt;
  }
  std::optional<SizeLimit> a = bound(ctx, op.operand(0), depth + 1);
  std::optional<SizeLimit> b = bound(ctx, op.operand(1), depth + 1);
  if (!a || !b)
    return std::nullopt;
  if (o == "+" || o == "-")
    return plus(*a, *b);
  if (o == "*")
    return times(*a, *b);
  // A power of a base below 1 grows with a negative exponent (`0.001 **
  // -3`); of an integer it does not.
  std::optional<double> exponent = numberValue(ctx, op.operand(1));
  if (o == "**" && !a->lengths && !b->lengths && b->most <= 64 &&
      (Sizer(ctx).of(op.operand(0)).isInt() || (exponent && *exponent >= 0)))
    return SizeLimit{std::pow(std::max(a->most, 1.0), b->most)};
  return std::nullopt;
}

std::optional<SizeLimit> bound(RuleContext &ctx, const Op *op, int depth) {
  if (!op || depth > 12)
    return std::nullopt;
  Magnitude m = Sizer(ctx).of(op);
  if (m.value)
    return SizeLimit{std::fabs(double(*m.value))};
  if (std::optional<double> f = floatLiteral(valueBehindNames(ctx, op)))
    return SizeLimit{std::fabs(*f)};
  if (chosenByInputs(ctx, op))
    return std::nullopt;
  switch (op->kind) {
  case OpKind::Name:
    return nameBound(ctx, op, depth);
  case OpKind::Subscript: // `h.shape[-1]`, `h.shape[:2]`
    if (const Op *t = shapeOwner(op->operand(0)))
      return dimsOf(ctx, t, depth + 1);
    return std::nullopt;
  case OpKind::Attribute: // `h.shape`; the model's configuration (`model.config.n_embd`)
    if (const Op *t = shapeOwner(op))
      return dimsOf(ctx, t, depth + 1);
    if (ctx.values.isConfigValue(op) && isModelDimension(op->text))
      return Length;
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

std::optional<double> spanBound(RuleContext &ctx, const Op *t) {
  std::optional<SizeLimit> span = dimsOf(ctx, t, 0);
  return span ? std::optional<double>(span->most) : std::nullopt;
}

std::optional<double> listedNumbers(RuleContext &ctx, const Op *op) {
  op = valueBehindNames(ctx, op);
  if (!op || !op->is(OpKind::Call) || !op->operand(0) || !op->operand(0)->is(OpKind::Attribute) ||
      op->operand(0)->text != "tolist" || !allTensors(ctx, op->operand(0)->operand(0)))
    return std::nullopt;
  return numbersIn(ctx, op->operand(0)->operand(0));
}

std::optional<double> numbersIn(RuleContext &ctx, const Op *t) {
  // What exists, once, is as long as it is (the threat model leaves it be);
  // many times over (`h.repeat(2**16)`), no limit ivc knows holds.
  std::optional<SizeLimit> span = dimsOf(ctx, t, 0);
  if (span && span->lengths > 1)
    return std::numeric_limits<double>::infinity();
  return span ? std::optional<double>(span->most) : std::nullopt;
}

bool lengthExists(RuleContext &ctx, const Op *x, int depth) {
  if (!x || depth > 8)
    return false;
  const ValueSet &vs = ctx.valuesOf(x);
  if (!vs.empty() && llvm::all_of(vs, [](const Value &v) {
        return v.kind == ValueKind::Str || v.kind == ValueKind::Envoy ||
               v.kind == ValueKind::Activation ||
               (v.kind == ValueKind::Container && (v.op || (!v.text.empty() && v.text != "range")));
      }))
    return true;
  // A helper's parameter: what every call passes it.
  const Symbol *s = symbolOf(ctx, x);
  if (!s || s->bindings.empty() || ctx.values.fromCaller(x))
    return false;
  return llvm::all_of(s->bindings, [&](const Binding &b) {
    std::vector<const Op *> passed;
    if (b.kind == Binding::Kind::Param && b.site && ctx.values.argumentsOf(*b.site, passed))
      return llvm::all_of(passed, [&](const Op *a) { return lengthExists(ctx, a, depth + 1); });
    return b.kind == Binding::Kind::Assign && b.path.empty() && b.value != x &&
           lengthExists(ctx, b.value, depth + 1);
  });
}

std::optional<SizeLimit> sizeLimit(RuleContext &ctx, const Op *op) {
  return chosenByInputs(ctx, op) ? std::nullopt : bound(ctx, op, 0);
}

std::optional<double> sizeBound(RuleContext &ctx, const Op *op) {
  if (Sizer(ctx).of(op).kind == Magnitude::Float)
    return 0.0; // a float is no size at all (a TypeError), nor a number of anything
  std::optional<SizeLimit> l = sizeLimit(ctx, op);
  if (!l || judged(*l) == HUGE_VAL)
    return std::nullopt;
  return l->most;
}

Magnitude countBound(RuleContext &ctx, const Op *op) {
  std::optional<SizeLimit> l = sizeLimit(ctx, op);
  if (!l || judged(*l) >= 9.2e18)
    return {};
  // A length of what exists with a small number is bounded by what
  // exists; with a large one, the number is the least it may be.
  if (l->lengths && l->most <= MaxLengthFactor)
    return Magnitude{Magnitude::Length, 48, std::nullopt};
  return Magnitude::integer(int64_t(l->most));
}

} // namespace ivc::rules::cost
