//===- Cost.cpp - Work whose size ivc cannot bound (IVC312) ---------------===//
//
// A FAST mediator runs in the server's process. A while loop there is ISOLATE
// (IVC301); so is work that one C call does without ever releasing the GIL,
// which would stop the whole server and which the runtime cannot abandon:
//  - integer `**`, `<<`, `pow` and math.factorial/comb/perm whose result
//    ivc cannot bound (`10 ** 10 ** 10`);
//  - repeating a string, bytes or container a number of times ivc cannot
//    bound (`[0] * n`), and repetitions and concatenations whose products
//    pass the limit (`[[0] * 2**24] * 2**24`: `str` of it walks 2^48 items),
//    and `sum(xss, [])`, quadratic;
//  - a range ivc cannot bound handed to a call that iterates it in C, or
//    unpacked (`sum(range(n))`, `sum(r)` after `r = range(n)[::2]`,
//    `[*range(n)]`; a Python loop over it releases the GIL), and a
//    comprehension that keeps what it makes from a range of evidently more
//    than 2^24 items (a loop, but the server's memory runs out first);
//  - a loop that extends the list it iterates, powers or squares of a name
//    its own rebinding grows (`x = x ** 2` in a loop or line by line), and
//    values a loop nests in themselves (Nesting.cpp);
//  - `bytes(n)`, `bytearray(n)` and string padding (`s.ljust(n)`) of a size
//    ivc evaluates beyond 256 MiB;
//  - format widths and precisions beyond 256 MiB (FormatCost.cpp), tensors
//    of constant sizes beyond 1 GiB (TensorCost.cpp, SizeArguments.cpp,
//    DtypeCost.cpp), sets and dicts filled with items that may collide
//    (HashingCost.cpp), and costly functions handed on (HandedOn.cpp).
// This bounds the evident cases; it is not a proof of cost. CostModel.h has
// the sizes these files share.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include <algorithm>

namespace ivc::rules {

using namespace ir;
using namespace cost;

namespace {

/// How many of a display's items read `self`.
int selfReferences(RuleContext &ctx, const Op &display, const Symbol *self) {
  int refs = 0;
  for (const Op *item : display.operands)
    refs += item && symbolOf(ctx, item) == self;
  return refs;
}

/// Whether a binding makes its name from a power, shift or square (`x = x ** 2`,
/// `x <<= 8`, `x *= x`): rebinding such a name compounds its size, in a loop
/// or line after line, where ivc sizes only names bound once.
bool growthBinding(RuleContext &ctx, const Binding &b) {
  const Op *v = b.kind == Binding::Kind::AugAssign && b.site ? statementOf(*b.site) : b.value;
  if (v && (v->is(OpKind::Tuple) || v->is(OpKind::List))) {
    // `x = (x, x)`: each rebinding doubles what a walk of x visits.
    const Symbol *self = symbolOf(ctx, b.site);
    return self && selfReferences(ctx, *v, self) >= 2;
  }
  if (v && v->is(OpKind::BinaryOp) && v->text == "*") {
    // `t = (t,) * n`: each rebinding multiplies it by n.
    const Symbol *self = symbolOf(ctx, b.site);
    for (const Op *side : v->operands)
      if (self && side && (side->is(OpKind::Tuple) || side->is(OpKind::List)) &&
          selfReferences(ctx, *side, self) >= 1)
        return true;
  }
  if (!v || !(v->is(OpKind::BinaryOp) || v->is(OpKind::AugAssign)))
    return false;
  std::string_view o = v->text;
  if (v->is(OpKind::AugAssign))
    o = o.substr(0, o.size() - 1);
  if (o == "**" || o == "<<")
    return true;
  const Symbol *l = symbolOf(ctx, v->operand(0));
  return (o == "*" || o == "+") && l && l == symbolOf(ctx, v->operand(1));
}

/// Whether the name `base` reads may hold an integer that compounds: it is
/// bound more than once, by a growth binding among others, and the other
/// bindings are not all tensors (`h = h ** 2` on an activation stays one).
bool compounds(RuleContext &ctx, const Op *base) {
  const Symbol *s = symbolOf(ctx, base);
  if (!s || s->bindings.size() < 2)
    return false;
  bool grows = false, tensor = true;
  for (const Binding &b : s->bindings) {
    if (growthBinding(ctx, b))
      grows = true;
    else
      tensor &= b.kind == Binding::Kind::Assign && allTensors(ctx, b.value);
  }
  return grows && !tensor;
}

void checkPower(RuleContext &ctx, const Op &at, std::string_view op, const Op *base,
                const Op *exponent) {
  if (allTensors(ctx, base) || allTensors(ctx, exponent))
    return;
  Sizer size(ctx);
  Magnitude b = size.of(base), e = size.of(exponent);
  if (b.kind == Magnitude::Float || e.kind == Magnitude::Float)
    return;
  if (e.value && *e.value < 0)
    return; // a float (`**`) or a ValueError (`<<`)
  if (e.value && b.isInt()) {
    Magnitude r = binary(op, b, e);
    if (r.bits <= MaxBits)
      return;
    if (!(r.bits <= 1e18)) // a chain ivc stopped following (or NaN), beyond any machine
      return report(ctx, at, "computes an integer whose size ivc cannot bound");
    return report(ctx, at, "computes an integer of up to " + std::to_string(int64_t(r.bits)) + " bits");
  }
  if (e.value && (op == "**" ? *e.value <= MaxBlindExponent : *e.value <= MaxBits)) {
    if (compounds(ctx, base))
      report(ctx, at, "raises again an integer that its own rebinding grows");
    return;
  }
  report(ctx, at, "computes an integer whose size ivc cannot bound");
}

/// The most bits an item of `seq` has, when its items are integers ivc
/// sizes beyond a machine word: a display, or a repetition of one.
std::optional<double> bigItemBits(RuleContext &ctx, const Op *seq, int depth = 0) {
  seq = valueBehindNames(ctx, seq);
  if (!seq || depth > 8)
    return std::nullopt;
  // What `map(int, xs)`, `list(xs)`, `iter(xs)` and the like pass on.
  if (seq->is(OpKind::Call)) {
    const Op *items = itemsPassedOn(ctx, *seq);
    if (!items && seq->operands.size() == 2 &&
        llvm::any_of(ctx.valuesOf(seq->operand(0)), [](const Value &v) {
          return v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "tuple", "sorted"});
        }))
      items = seq->operand(1);
    return items ? bigItemBits(ctx, items, depth + 1) : std::nullopt;
  }
  if (seq->is(OpKind::ListComp)) // `[b for _ in range(n)]`: its element
    for (const Region &r : seq->regions)
      for (const Op *c : r.ops)
        if (c->is(OpKind::CompYield)) {
          Magnitude m = Sizer(ctx).of(c->operand(0));
          return m.kind == Magnitude::Int && m.bits > 64 ? std::optional<double>(m.bits)
                                                         : std::nullopt;
        }
  if (seq && seq->is(OpKind::BinaryOp) && seq->text == "*") // `[b] * n`, `xs * n`
    for (const Op *side : seq->operands)
      if (std::optional<double> b = bigItemBits(ctx, side, depth + 1))
        return b;
  if (!seq || !(seq->is(OpKind::List) || seq->is(OpKind::Tuple)))
    return std::nullopt;
  double most = 0;
  for (const Op *item : seq->operands) {
    Magnitude m = item && !item->is(OpKind::Starred) ? Sizer(ctx).of(item) : Magnitude{};
    if (m.kind == Magnitude::Int)
      most = std::max(most, m.bits);
  }
  return most > 64 ? std::optional<double>(most) : std::nullopt;
}

/// Whether `op` is, or repeats, a value of the caller's whose kind no
/// plan check fixes (a name the file never binds, or binds to values of
/// several kinds): it may be a string.
bool callersUntyped(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return false;
  if (op->is(OpKind::BinaryOp) && op->text == "*")
    return callersUntyped(ctx, op->operand(0), depth + 1) ||
           callersUntyped(ctx, op->operand(1), depth + 1);
  if (!op->is(OpKind::Name))
    return false;
  if (const Op *v = onlyAssignedValue(ctx, op); v && v != op && !ctx.values.fromCaller(op))
    return callersUntyped(ctx, v, depth + 1);
  NameResolution r = ctx.values.scopes().resolve(op);
  if (r.kind == NameResolution::Kind::Undefined) // unless a manifest gives its value
    return maySequence(ctx, op);
  return r.symbol && ctx.values.fromCaller(op) && !ctx.values.callerKind(*r.symbol) &&
         maySequence(ctx, op);
}

/// How many times `seq` already repeats a sequence ivc cannot size (`s * 16`
/// as the `seq` of `(s * 16) * 16`, through names), or 1.
double blindRepetitions(RuleContext &ctx, const Op *seq, int depth = 0) {
  seq = valueBehindNames(ctx, seq);
  if (!seq || depth > 8 || !seq->is(OpKind::BinaryOp) || seq->text != "*")
    return 1;
  for (int side = 0; side < 2; ++side) {
    Magnitude count = Sizer(ctx).of(seq->operand(1 - side));
    if (count.value && maySequence(ctx, seq->operand(side)))
      return double(std::max<int64_t>(*count.value, 1)) *
             blindRepetitions(ctx, seq->operand(side), depth + 1);
  }
  return 1;
}

/// Why repeating `seq` `count` times may make more than one call should,
/// if it may.
std::optional<std::string> unboundedRepetition(RuleContext &ctx, const Op *seq,
                                               const Magnitude &count) {
  if (count.kind == Magnitude::Float)
    return std::nullopt; // a TypeError
  std::optional<Extent> e = ExtentOf(ctx).of(seq);
  if (count.kind == Magnitude::Length) { // bounded by what exists, when seq is small
    if (e && e->reach <= 256)
      return std::nullopt;
    return "repeats a sequence ivc cannot size a length's number of times";
  }
  if (!count.value)
    return "repeats a sequence a number of times ivc cannot bound";
  int64_t n = *count.value;
  if (n > MaxElements)
    return "repeats a sequence " + std::to_string(n) + " times";
  if (!e) {
    // Repetitions of a repetition multiply: `s * 16 * 16 * 16`.
    double times = double(n) * blindRepetitions(ctx, seq);
    if (times <= double(MaxBlindSequenceRepetitions))
      return std::nullopt;
    return "repeats a sequence ivc cannot size " + countText(times) + " times";
  }
  double times = double(std::max<int64_t>(n, 0));
  return Extent{e->length * times, e->reach * times, e->text}.excess();
}

/// How many times `op` repeats a sequence. `min(40, x)` is at most 40
/// whatever x is, and a count below zero repeats nothing, so the smallest
/// known argument of a `min` bounds it (its magnitude alone would not).
Magnitude repetitionCount(RuleContext &ctx, const Op *op) {
  const Op *call = valueBehindNames(ctx, op);
  const ValueSet &callee = call && call->is(OpKind::Call) ? ctx.valuesOf(call->operand(0))
                                                          : ValueSet();
  bool isMin = !callee.empty() && llvm::all_of(callee, [](const Value &v) {
    return v.kind == ValueKind::Builtin && v.text == "min";
  });
  std::vector<const Op *> args = isMin ? positionalArguments(*call) : std::vector<const Op *>();
  std::optional<int64_t> bound;
  if (args.size() >= 2 && args.size() + 1 == call->operands.size())
    for (const Op *a : args)
      if (Magnitude m = Sizer(ctx).of(a); m.value && (!bound || *m.value < *bound))
        bound = *m.value;
  if (bound)
    return Magnitude::integer(std::max<int64_t>(*bound, 0));
  // `"-" * (width + 12)`, `[0] * max(len(h), 2**28)`: what sizeLimit says.
  Magnitude m = Sizer(ctx).of(op);
  return m.value || m.kind == Magnitude::Float ? m : countBound(ctx, op);
}

double chainedRepetitions(RuleContext &ctx, const Op *value, const Op *judged, int depth = 0);

/// How many times a name bound more than once repeats what it is made of:
/// the numbers its rebindings by themselves multiply it by (`z = z *
/// 2**15`), times the most any other binding repeats (augmented ones are
/// judged where they are).
double rebindingRepetitions(RuleContext &ctx, const Op &name, const Op *judged, int depth) {
  const Symbol *s = symbolOf(ctx, &name);
  if (!s || s->bindings.size() > 8)
    return 1;
  double self = 1, base = 1;
  for (const Binding &b : s->bindings) {
    if (b.kind == Binding::Kind::AugAssign || b.value == judged)
      continue; // (the repetition being judged counts its own number)
    if (b.kind != Binding::Kind::Assign || !b.path.empty() || !b.value)
      return 1;
    const Op *v = b.value;
    if (v->is(OpKind::BinaryOp) && v->text == "*") {
      for (int side = 0; side < 2; ++side)
        if (symbolOf(ctx, v->operand(side)) == s)
          if (Magnitude m = Sizer(ctx).of(v->operand(1 - side)); m.value) {
            self *= std::max(1.0, double(*m.value));
            v = nullptr;
            break;
          }
    }
    if (v)
      base = std::max(base, chainedRepetitions(ctx, v, judged, depth));
  }
  return self * base;
}

/// How many times `value` already repeats what it is made of, through a
/// chain of products by numbers ivc evaluates (`out * 2**12 * 2**12`, also
/// through names, rebound ones included): 1 for anything else.
double chainedRepetitions(RuleContext &ctx, const Op *value, const Op *judged, int depth) {
  double times = 1;
  for (; depth < 16 && times < HUGE_VAL; ++depth) {
    const Op *behind = valueBehindNames(ctx, value);
    if (!behind && value && value->is(OpKind::Name)) // rebound: `z = o * 2**14; z = z * 2**15`
      return times * rebindingRepetitions(ctx, *value, judged, depth + 1);
    value = behind;
    if (!value || !value->is(OpKind::BinaryOp) || value->text != "*")
      break;
    // (A number times a number repeats nothing: `k * 2**30`.)
    Magnitude a = Sizer(ctx).of(value->operand(0)), b = Sizer(ctx).of(value->operand(1));
    int repeated = b.value && !a.value ? 0 : a.value && !b.value ? 1 : -1;
    const Op *seq = repeated < 0 ? nullptr : value->operand(repeated);
    if (!seq || !(maySequence(ctx, seq) || anyTensor(ctx, seq)))
      break;
    times *= std::max(1.0, double(*(repeated == 0 ? b : a).value));
    value = seq;
  }
  return times;
}

void checkRepetition(RuleContext &ctx, const Op &at, const Op *l, const Op *r) {
  bool lSeq = isSequence(ctx, l), rSeq = isSequence(ctx, r);
  const Symbol *ls = symbolOf(ctx, l);
  if (!lSeq && !rSeq && ls && ls == symbolOf(ctx, r) && compounds(ctx, l))
    return report(ctx, at, "squares an integer that its own rebinding grows");
  if (!lSeq && !rSeq) {
    // `a * a` of a 2^19-bit `a`, line after line: each product is sized.
    // (A chain deeper than the Sizer follows is no evidence of size here:
    // only powers, shifts and rebinding amplify it.)
    Sizer size(ctx);
    Magnitude a = size.of(l), b = size.of(r);
    Magnitude product = binary("*", a, b);
    if (a.isInt() && b.isInt() && product.bits > MaxBits && product.bits <= 1e18 &&
        !allTensors(ctx, l) && !allTensors(ctx, r))
      return report(ctx, at, "multiplies integers into one of up to " +
                                 std::to_string(int64_t(product.bits)) + " bits");
    // `xs * 2**30` of a value ivc cannot type (`h.shape[s]`, a helper's
    // parameter) may be a list repeated that many times, and so may what it
    // types as a tensor: a block's output is a tuple, and so are `h.split()`
    // and `h.topk()`.
    auto mayRepeat = [&](const Op *value) {
      return maySequence(ctx, value) || anyTensor(ctx, value);
    };
    for (auto [value, count] : {std::pair{l, b}, std::pair{r, a}}) {
      // (A chain repeats its first value the product of its numbers.)
      double chained =
          count.value ? double(*count.value) * chainedRepetitions(ctx, value, &at) : 0;
      if (count.value && chained > MaxElements && mayRepeat(value))
        return report(ctx, at, "repeats what may be a sequence " + countText(chained) + " times");
      // The caller's value of no checked kind may be a 64 MiB string: as
      // an unsized sequence, 16 repetitions in all (`s * 16 * 16` is 256).
      // (A length's number of times, `s * len(s)`, may be anything.)
      // So may a number ivc cannot bound, unless a tensor's (`s * n`, not
      // `alpha * h`).
      const Op *counter = value == l ? r : l;
      double times = count.value ? double(*count.value) * blindRepetitions(ctx, value)
                     : count.kind == Magnitude::Float || allTensors(ctx, counter) ? 0
                                                                                  : HUGE_VAL;
      if (times > double(MaxBlindSequenceRepetitions) && callersUntyped(ctx, value))
        return report(ctx, at, "repeats what may be the caller's sequence " +
                                   countText(times) + " times");
    }
    return;
  }
  if (lSeq == rSeq)
    return;
  // `t = (t,) * 4096` line after line: each rebinding multiplies what a
  // walk of t visits (`hash(t)`, `t == t`).
  const Op *seq = lSeq ? l : r;
  if (seq && (seq->is(OpKind::Tuple) || seq->is(OpKind::List)))
    for (const Op *item : seq->operands)
      if (symbolOf(ctx, item) && compounds(ctx, item))
        return report(ctx, at, "repeats a sequence holding a name that this rebinding multiplies");
  Magnitude count = repetitionCount(ctx, lSeq ? r : l);
  if (std::optional<std::string> why = unboundedRepetition(ctx, seq, count))
    report(ctx, at, *why);
}

/// Whether what a binding makes may be a sequence: a display or a string,
/// or a tuple ivc types a tensor (a block's output, the pieces of a split,
/// a shape), or anything ivc cannot type.
bool mayBindSequence(RuleContext &ctx, const Op *value) {
  if (!value || isSequence(ctx, value) || maySequence(ctx, value))
    return true;
  if (value->is(OpKind::Attribute) && value->text == "shape")
    return true;
  if (value->is(OpKind::Call) && value->operand(0) && value->operand(0)->is(OpKind::Attribute) &&
      isOneOf(value->operand(0)->text, {"split", "chunk", "unbind", "tensor_split", "hsplit",
                                        "vsplit", "dsplit", "split_with_sizes", "size"}))
    return true;
  return llvm::any_of(ctx.valuesOf(value),
                      [](const Value &v) { return v.kind == ValueKind::Activation; });
}

/// Whether `value` is what a module returns or was given, whole: a block's
/// output is a tuple, which `* 2` repeats (`y = model.h[0].output`, or a
/// module's call), where an item of it (`.output[0]`) is a tensor, which
/// `* 2` scales.
bool wholeOutput(RuleContext &ctx, const Op *value) {
  auto envoy = [&](const Op *o) {
    const ValueSet &vs = ctx.valuesOf(o);
    return !vs.empty() &&
           llvm::all_of(vs, [](const Value &v) { return v.kind == ValueKind::Envoy; });
  };
  if (value && value->is(OpKind::Attribute) && isOneOf(value->text, {"output", "input", "inputs"}))
    return envoy(value->operand(0));
  return value && value->is(OpKind::Call) && envoy(value->operand(0));
}

/// How many copies of the sequence `s` names an expression makes: through
/// concatenations, repetitions, slices, copies and either side of a
/// conditional (`o[:] + o`, `o * 2`, `tuple(o) + tuple(o)`, `o + o if c
/// else o`). `repeated`: some come from a repetition by a number, which of
/// a tensor is arithmetic.
struct Copies {
  double n = 0;
  bool repeated = false;
};

Copies copiesOf(RuleContext &ctx, const Op *e, const Symbol *s, int depth = 0) {
  if (!e || depth > 8)
    return {};
  switch (e->kind) {
  case OpKind::Name: return {symbolOf(ctx, e) == s ? 1.0 : 0.0, false};
  case OpKind::Subscript: // a slice is the sequence again
    return e->operand(1) && e->operand(1)->is(OpKind::Slice) ? copiesOf(ctx, e->operand(0), s, depth + 1)
                                                            : Copies{};
  case OpKind::Call: {
    const Op *callee = e->operand(0);
    if (callee && callee->is(OpKind::Attribute) && callee->text == "copy")
      return copiesOf(ctx, callee->operand(0), s, depth + 1);
    bool copy = llvm::all_of(ctx.valuesOf(callee), [](const Value &v) {
      return v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "tuple", "sorted"});
    });
    return copy ? copiesOf(ctx, positionalArgument(*e, 0), s, depth + 1) : Copies{};
  }
  case OpKind::BinaryOp: {
    Copies a = copiesOf(ctx, e->operand(0), s, depth + 1);
    Copies b = copiesOf(ctx, e->operand(1), s, depth + 1);
    if (e->text == "+")
      return {a.n + b.n, a.repeated || b.repeated};
    if (e->text != "*" || (a.n > 0) == (b.n > 0))
      return {};
    std::optional<double> times = numberValue(ctx, e->operand(a.n > 0 ? 1 : 0));
    return {std::max(a.n, b.n) * (times ? *times : 2), true};
  }
  case OpKind::IfExp: {
    Copies a = copiesOf(ctx, e->operand(1), s, depth + 1);
    Copies b = copiesOf(ctx, e->operand(2), s, depth + 1);
    return a.n >= b.n ? a : b;
  }
  case OpKind::BoolOp: {
    Copies a = copiesOf(ctx, e->operand(0), s, depth + 1);
    Copies b = copiesOf(ctx, e->operand(1), s, depth + 1);
    return a.n >= b.n ? a : b;
  }
  default: return {};
  }
}

/// Whether `x = value` in a loop rebinds x to two copies of itself or more
/// (`o = o * 2`, `o = o[:] + o`): 28 turns make 2^28 items. A repetition
/// counts where x may be a list (a tensor's `h * 2` is arithmetic); a
/// concatenation also where x may be a tuple ivc types a tensor.
bool doublesItselfInLoop(RuleContext &ctx, const Op &assign) {
  if (assign.operands.size() != 2 || !inLoopOver(ctx, assign, nullptr))
    return false;
  const Symbol *s = symbolOf(ctx, assign.operand(0));
  const Op *value = assign.operand(1);
  if (!s || (value->is(OpKind::BinaryOp) && value->text == "+" &&
             symbolOf(ctx, value->operand(0)) == s && symbolOf(ctx, value->operand(1)) == s))
    return false; // `o = o + o`: reported at the `+` (checkConcatenation)
  Copies c = copiesOf(ctx, value, s);
  if (c.n < 2)
    return false;
  return llvm::any_of(s->bindings, [&](const Binding &b) {
    if (b.kind != Binding::Kind::Assign || !b.value || b.value == value)
      return false;
    bool list = isSequence(ctx, b.value) || maySequence(ctx, b.value);
    return list || (!c.repeated && mayBindSequence(ctx, b.value)) || wholeOutput(ctx, b.value);
  });
}

/// `xs + ys` of sizes ivc evaluates, where the sum first passes the limit
/// (`a + b + c` is judged once, where it crosses).
void checkConcatenation(RuleContext &ctx, const Op &at) {
  // (Whatever the other bindings are typed: a tuple may be typed a tensor.)
  const Symbol *ls = symbolOf(ctx, at.operand(0));
  if (ls && ls == symbolOf(ctx, at.operand(1)) &&
      llvm::any_of(ls->bindings, [&](const Binding &b) { return growthBinding(ctx, b); }) &&
      llvm::any_of(ls->bindings, [&](const Binding &b) {
        return b.kind == Binding::Kind::Assign && !growthBinding(ctx, b) &&
               mayBindSequence(ctx, b.value);
      }))
    return report(ctx, at, "doubles a sequence that its own rebinding grows");
  std::optional<Extent> l = ExtentOf(ctx).of(at.operand(0));
  std::optional<Extent> r = ExtentOf(ctx).of(at.operand(1));
  if (!l || !r)
    return;
  if (l->excess() || r->excess())
    return; // judged where the operand was made
  if (std::optional<std::string> why =
          Extent{l->length + r->length, l->reach + r->reach, l->text}.excess())
    report(ctx, at, *why);
}

/// Long division is quadratic in the operands' sizes: `a % b` of a 2^28-bit
/// `a` by a 2^27-bit `b` ran for hours (`divmod` and `math.isqrt` too, which
/// divides by its own root). A divisor of one machine word is linear.
void checkDivision(RuleContext &ctx, const Op &at, const Op *dividend,
                   const Op *divisor = nullptr) {
  if (allTensors(ctx, dividend))
    return;
  Sizer size(ctx);
  Magnitude a = size.of(dividend);
  if (!(a.kind == Magnitude::Int && !a.value && a.bits > MaxBits && a.bits <= 1e18))
    return;
  Magnitude b = divisor ? size.of(divisor) : Magnitude{};
  if (b.isInt() && b.bits <= 64)
    return;
  report(ctx, at, "divides an integer of up to " + std::to_string(int64_t(a.bits)) + " bits");
}

void checkBinary(Op &op, RuleContext &ctx) {
  std::string_view o = op.text;
  if (op.is(OpKind::AugAssign))
    o = o.substr(0, o.size() - 1);
  if (o == "**" || o == "<<")
    checkPower(ctx, op, o, op.operand(0), op.operand(1));
  else if (o == "*")
    checkRepetition(ctx, op, op.operand(0), op.operand(1));
  else if (o == "+" && op.is(OpKind::BinaryOp))
    checkConcatenation(ctx, op);
  else if (o == "%" && op.is(OpKind::BinaryOp) && isSequence(ctx, op.operand(0))) {
    if (std::optional<std::string> why = formatCost(ctx, op))
      report(ctx, op, *why);
  } else if (o == "%" || o == "//") {
    checkDivision(ctx, op, op.operand(0), op.operand(1));
  } else if (o == "@") {
    if (std::optional<double> n = matmulElements(ctx, op.operand(0), op.operand(1));
        n && *n > MaxTensorElements)
      report(ctx, op, "makes a tensor of " + countText(*n) + " elements from its operands");
    else if (std::optional<std::string> why = matmulWorkCost(ctx, op.operand(0), op.operand(1)))
      report(ctx, op, *why);
  }
}

/// `pow(b, e, m)`: about one multiplication modulo m per bit of e, each
/// growing as m's bits to the power 1.585 (Karatsuba). Measured with
/// CPython 3.11 here: 64 steps modulo a 415,000-bit m took 5.8 s; the
/// bound keeps a call near 0.1 s.
void checkModularPower(RuleContext &ctx, const Op &call) {
  Sizer size(ctx);
  Magnitude e = size.of(argument(call, 1, "exp")), m = size.of(argument(call, 2, "mod"));
  if (e.kind == Magnitude::Float || m.kind == Magnitude::Float)
    return; // a TypeError
  if (e.isInt() && m.isInt() && e.bits * std::pow(m.bits, 1.585) <= 1e9)
    return;
  report(ctx, call, e.isInt() && m.isInt() && m.bits <= 1e18
                        ? "computes a modular power with a " + std::to_string(int64_t(m.bits)) +
                              "-bit modulus and a " + std::to_string(int64_t(e.bits)) +
                              "-bit exponent"
                        : std::string("computes a modular power of sizes ivc cannot bound"));
}

/// Whether a range call's length is bounded.
/// `passes`: how many times something iterates each item (a lazy wrapper
/// over a range calls its function once per item more).
bool boundedRange(RuleContext &ctx, const std::vector<const Op *> &args, int passes = 1) {
  if (args.size() == 1 && Sizer(ctx).of(args[0]).kind == Magnitude::Length)
    return true;
  // `range(h.shape[1])`, `range(h.size(-1) // 2)`: a length of what exists.
  if (args.size() == 1)
    if (std::optional<SizeLimit> limit = sizeLimit(ctx, args[0]);
        limit && judged(*limit) * passes <= double(MaxElements))
      return true;
  std::optional<double> n = rangeLength(ctx, args);
  return n && *n * passes <= double(MaxElements);
}

/// A builtin that takes a range without iterating it.
bool isConstantTimeOnRanges(const Value &v) {
  return v.kind == ValueKind::Builtin &&
         isOneOf(v.text, {"len", "bool", "repr", "str", "print", "isinstance", "type", "id",
                          "hash"});
}

/// Whether `op` may evaluate to a range longer than MaxElements or of a
/// length ivc cannot bound, or to a lazy wrapper over one: a call of `range`,
/// a slice of one (a range too), one of itertools' combinatoric iterators
/// (IteratorCost.cpp), or a name bound to one (`r = range(n)` ... `sum(r)`).
/// `evidently`: only one whose length ivc evaluates. Under `passes` - 1 lazy
/// wrappers (`map(f, map(g, range(n)))`), each item costs `passes` calls, so
/// the bound on the length is that much lower. Past the depth it follows,
/// it cannot tell: a range may be long, but not evidently. A name met again
/// on the way (`chain = zip(chain)`) adds nothing the first meeting did not.
struct LongRangeWalk {
  RuleContext &ctx;
  bool evidently;
  llvm::SmallVector<const Symbol *, 8> names;

  bool mayBeLong(const Op *op, int depth, int passes) {
    if (!op)
      return false;
    if (depth > 8)
      return !evidently;
    auto inner = [&](const Op *o) { return mayBeLong(o, depth + 1, passes); };
    auto wrapped = [&](const Op *o) { return mayBeLong(o, depth + 1, passes + 1); };
    if (op->is(OpKind::Call)) {
      std::vector<const Op *> args = positionalArguments(*op);
      for (const Value &v : ctx.valuesOf(op->operand(0))) {
        if (v.kind == ValueKind::Builtin && v.text == "range") {
          std::optional<double> n = rangeLength(ctx, args);
          if (evidently ? n && *n > double(MaxElements) : !boundedRange(ctx, args, passes))
            return true;
        }
        if (isLazyWrapper(v) && llvm::any_of(args, wrapped))
          return true;
        if (isCombinatoric(v)) {
          std::optional<double> n = combinatoricCount(ctx, *op, v.text);
          if (evidently ? n && *n > double(MaxElements)
                        : !n || *n * passes > double(MaxElements))
            return true;
        }
      }
      return false;
    }
    if (op->is(OpKind::Subscript))
      return op->operand(1) && op->operand(1)->is(OpKind::Slice) && inner(op->operand(0));
    // `range(n) if c else xs`, `c and range(n)`, `(r := range(n))`.
    if (op->is(OpKind::IfExp))
      return inner(op->operand(1)) || inner(op->operand(2));
    if (op->is(OpKind::BoolOp))
      return inner(op->operand(0)) || inner(op->operand(1));
    if (op->is(OpKind::NamedExpr))
      return inner(op->operand(0));
    if (op->is(OpKind::Name) && op->ctx == Ctx::Load) {
      const Symbol *s = symbolOf(ctx, op);
      if (!s || llvm::is_contained(names, s))
        return false;
      // A read's answer is its symbol's; it is kept only when worked out from
      // the top (deeper, the depth bound may have cut it short).
      llvm::DenseMap<const Symbol *, bool> &memo = ctx.memo.longRangeNames[evidently];
      if (depth == 0)
        if (auto it = memo.find(s); it != memo.end())
          return it->second;
      names.push_back(s);
      bool found = llvm::any_of(s->bindings, [&](const Binding &b) {
        return (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus) &&
               b.path.empty() && inner(b.value);
      });
      names.pop_back();
      if (depth == 0)
        memo[s] = found;
      return found;
    }
    return false;
  }
};

bool mayBeLongRange(RuleContext &ctx, const Op *op, bool evidently = false) {
  return LongRangeWalk{ctx, evidently, {}}.mayBeLong(op, 0, 1);
}

/// How many integers `op` lists when it is a range, a sequence ivc sizes,
/// or a list, tuple or sorted copy of one; unknown for a range ivc cannot
/// bound counts as too many.
std::optional<double> factorCount(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return std::nullopt;
  if (op->is(OpKind::Name))
    return factorCount(ctx, onlyAssignedValue(ctx, op), depth + 1);
  if (isRangeCall(ctx, op)) {
    std::optional<double> n = rangeLength(ctx, positionalArguments(*op));
    return n ? n : std::optional<double>(HUGE_VAL);
  }
  if (op->is(OpKind::Call) && llvm::any_of(ctx.valuesOf(op->operand(0)), [](const Value &v) {
        return v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "tuple", "sorted"});
      }))
    return factorCount(ctx, positionalArgument(*op, 0), depth + 1);
  if (const Op *items = op->is(OpKind::Call) ? itemsPassedOn(ctx, *op) : nullptr)
    return factorCount(ctx, items, depth + 1);
  return iterableLength(ctx, op);
}

/// Why calling `callee` in `call` may do work without a bound, if it may.
std::optional<std::string> unboundedCall(RuleContext &ctx, const Op &call,
                                              const Value &callee,
                                              const std::vector<const Op *> &args) {
  std::string_view f = callee.text;
  // One call that iterates a range (`sum(r)`, `list(zip(r, xs))`) does it in
  // C, without releasing the GIL; a for loop over it (or over a lazy wrapper
  // of it) is Python's loop.
  if (!isLazyWrapper(callee) && !isConstantTimeOnRanges(callee))
    for (size_t i = 1; i < call.operands.size(); ++i) {
      const Op *a = call.operand(i);
      if (a && a->is(OpKind::Keyword))
        a = a->operand(0);
      if (a && !a->is(OpKind::Starred) && mayBeLongRange(ctx, a))
        return "iterates a range or combinatoric iterator whose length ivc cannot bound";
    }
  // `bytes(n)` and `s.ljust(n)` allocate and fill n bytes or characters in
  // one call; n of a length is not judged.
  const Op *size = nullptr;
  if (callee.kind == ValueKind::Builtin && isOneOf(f, {"bytes", "bytearray"}) && args.size() == 1)
    size = args[0];
  // `str.ljust(s, n)` takes the string first.
  if (callee.kind == ValueKind::Method && isOneOf(f, {"ljust", "rjust", "center", "zfill"}))
    size = argument(call, callee.receiver == ValueKind::Builtin ? 1 : 0, "width");
  // math.prod(range(1, n)) is n factorial, math.prod([3] * n) 3^n.
  if (callee.kind == ValueKind::Qualified &&
      isOneOf(f, {"math.prod", "math.lcm", "numpy.prod", "numpy.product", "numpy.cumprod",
                  "numpy.cumproduct", "numpy.multiply.reduce", "numpy.multiply.accumulate"}))
    for (size_t i = 1; i < call.operands.size(); ++i) {
      const Op *a = call.operand(i);
      if (a && a->is(OpKind::Starred))
        a = a->operand(0);
      if (std::optional<double> n = factorCount(ctx, a); n && *n > double(MaxFactorial))
        return "multiplies more than 2^14 integers in one call";
    }
  // reduce(operator.add, xss) copies the running total at every item, as
  // `sum(xss, [])` does.
  if (callee.kind == ValueKind::Qualified &&
      isOneOf(f, {"functools.reduce", "itertools.accumulate"})) {
    const Op *fn = argument(call, f == "functools.reduce" ? 0 : 1, "function");
    // accumulate adds by default
    bool concatenates = (!fn && f == "itertools.accumulate") ||
                        llvm::any_of(fn ? ctx.valuesOf(fn) : ValueSet{}, [](const Value &v) {
      return v.kind == ValueKind::Qualified &&
             isOneOf(v.text, {"operator.add", "operator.concat", "operator.iadd",
                              "operator.iconcat"});
    });
    std::optional<Extent> e =
        ExtentOf(ctx).of(argument(call, f == "functools.reduce" ? 1 : 0, "iterable"));
    if (concatenates && e && (e->reach > e->length || e->chars > 0) &&
        e->length * std::max(e->reach, e->chars) > double(MaxElements))
      return "concatenates sequences with '" + std::string(f) +
             "', which copies the total at every item";
  }
  if (size && chosenByInputs(ctx, size))
    return std::string("fills a number of bytes or characters ivc cannot bound");
  if (size) {
    Magnitude m = Sizer(ctx).of(size);
    if (m.kind == Magnitude::Int && (m.value ? double(*m.value) > MaxFilledBytes : m.bits > 28))
      return m.value ? "fills " + std::to_string(*m.value) + " bytes or characters"
                     : "fills a number of bytes or characters ivc cannot bound";
  }
  // Adding or comparing big integers costs their bits each time:
  // sum([10**100000] * 2**23) held the interpreter lock 65 s.
  if (callee.kind == ValueKind::Builtin && isOneOf(f, {"sum", "sorted", "max", "min"}) &&
      (args.size() == 1 || (f == "sum" && args.size() == 2)))
    if (std::optional<double> bits = bigItemBits(ctx, args[0]))
      if (std::optional<double> n = iterableLength(ctx, args[0])) {
        double steps = f == "sorted" ? *n * std::max(1.0, std::log2(*n)) : *n;
        if (steps * *bits > MaxBitSteps)
          return "'" + std::string(f) + "' works through " + countText(*n) +
                 " integers of up to " + countText(*bits) + " bits in one call";
      }
  // A builtin that takes a tensor item by item makes a tensor of each, in
  // one call: max(torch.rand(2**22)) held the interpreter lock 3-4.7 s. An
  // activation's length is left be, as everywhere.
  if (callee.kind == ValueKind::Builtin && !args.empty() && allTensors(ctx, args[0]) &&
      isOneOf(f, {"sum", "max", "min", "sorted", "list", "tuple", "set", "frozenset", "any",
                  "all"})) {
    std::optional<double> items = numbersIn(ctx, args[0]);
    double n = items.value_or(HUGE_VAL);
    if ((f == "sorted" ? n * std::max(1.0, std::log2(n)) : n) > MaxIteratedTensorItems)
      return "takes " + (std::isfinite(n) ? countText(n) + " items" : "items ivc cannot count") +
             " of a tensor one by one in one call, a new tensor each";
  }
  // A sort compares n log n times in one call: sorted() of 2^24 floats held
  // the interpreter lock 6 s, of as many strings 8 s.
  const Op *sorts = nullptr;
  if (callee.kind == ValueKind::Builtin && f == "sorted" && !args.empty())
    sorts = args[0];
  if (callee.kind == ValueKind::Method && f == "sort" && call.operand(0)->is(OpKind::Attribute))
    sorts = call.operand(0)->operand(0);
  std::optional<double> n = sorts ? iterableLength(ctx, sorts) : std::nullopt;
  if (sorts && !n)
    n = listedNumbers(ctx, sorts);
  if (n && *n * std::max(1.0, std::log2(*n)) > double(MaxElements))
    return "sorts " + countText(*n) + " items in one call";
  // `sum(xss, [])` copies the running total at every item: quadratic.
  if (callee.kind == ValueKind::Builtin && f == "sum")
    if (const Op *start = argument(call, 1, "start"); start && isSequence(ctx, start)) {
      std::optional<Extent> e = ExtentOf(ctx).of(argument(call, 0, "iterable"));
      if (!e || e->length * e->reach > double(MaxElements))
        return "concatenates sequences with 'sum', which copies the total at every item";
    }
  if (callee.kind == ValueKind::Qualified &&
      isOneOf(f, {"math.factorial", "math.comb", "math.perm"}))
    for (const Op *a : args) {
      Magnitude m = Sizer(ctx).of(a);
      if (!m.value)
        return "calls '" + std::string(f) + "' with an argument ivc cannot bound";
      if (*m.value > MaxFactorial)
        return "calls '" + std::string(f) + "' with " + std::to_string(*m.value);
    }
  // `xs.append(...)` inside `for x in xs:` never ends.
  if (callee.kind == ValueKind::Method && isOneOf(f, {"append", "extend", "insert"})) {
    const Op *attr = call.operand(0);
    const Symbol *list =
        attr && attr->is(OpKind::Attribute) ? symbolOf(ctx, attr->operand(0)) : nullptr;
    if (list && inLoopOver(ctx, call, list))
      return "extends the list its loop iterates";
    if (list && f == "extend" && readsLazily(ctx, argument(call, 0, "iterable"), list))
      return "extends a list from an iterator over itself";
  }
  if (isLazyWrapper(callee) && growsWhatItIterates(ctx, call))
    return "grows the list it iterates";
  return std::nullopt;
}

/// Whether a display's items are bound to names one by one (`a, b =
/// range(n), 0`): those names are followed where they are read.
bool unpackedByAssignment(const Op &display) {
  const Op *stmt = statementOf(display);
  if (!stmt || !stmt->is(OpKind::Assign) || stmt->operands.back() != &display)
    return false;
  for (size_t t = 0; t + 1 < stmt->operands.size(); ++t) {
    const Op *target = stmt->operand(t);
    if (!target || !(target->is(OpKind::Tuple) || target->is(OpKind::List)) ||
        target->operands.size() != display.operands.size() ||
        llvm::any_of(target->operands, [](const Op *o) { return o && o->is(OpKind::Starred); }))
      return false;
  }
  return true;
}

/// Where a range (or an iterator over one) ivc cannot bound goes out of the
/// rule's sight: into a container, out of a function, into an attribute or
/// item, a default value. Whatever reads it back may consume it in C
/// (`sum([range(n)][0])`, `sum(f())`), so it is reported where it goes.
std::optional<std::string> escapingRange(RuleContext &ctx, const Op &op) {
  llvm::SmallVector<const Op *, 4> escaping;
  switch (op.kind) {
  case OpKind::Tuple: case OpKind::List: case OpKind::Set: case OpKind::Dict:
    if (op.ctx == Ctx::Load && !unpackedByAssignment(op))
      escaping.append(op.operands.begin(), op.operands.end());
    break;
  case OpKind::Return: case OpKind::CompYield:
    escaping.append(op.operands.begin(), op.operands.end());
    break;
  case OpKind::Param:
    escaping.push_back(op.operand(0));
    break;
  case OpKind::Assign: {
    bool named = true;
    for (size_t t = 0; t + 1 < op.operands.size(); ++t)
      named &= op.operand(t) && op.operand(t)->is(OpKind::Name);
    if (!named && !op.operands.empty() && !unpackedByAssignment(*op.operands.back()))
      escaping.push_back(op.operands.back());
    break;
  }
  default:
    break;
  }
  for (const Op *item : escaping)
    if (item && !item->is(OpKind::Starred) && mayBeLongRange(ctx, item))
      return std::string("stores a range or combinatoric iterator whose length ivc cannot bound "
                         "where ivc does not follow it (what reads it back may consume it in C)");
  return std::nullopt;
}

void checkCallCost(Op &call, RuleContext &ctx) {
  if (std::optional<std::string> why = formatCost(ctx, call))
    return report(ctx, call, *why);
  std::vector<const Op *> args = positionalArguments(call);
  for (const Value &v : ctx.valuesOf(call.operand(0))) {
    if (std::optional<std::string> why = tensorCallCost(ctx, call, v))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = textCallCost(ctx, call, v))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = hashingCost(ctx, call, v))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = dtypeCost(ctx, call, v))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = sizeArgumentCost(ctx, call, v))
      return report(ctx, call, *why);
    bool isPow = (v.kind == ValueKind::Builtin && v.text == "pow") ||
                 (v.kind == ValueKind::Qualified && v.text == "operator.pow");
    if (isPow && argument(call, 2, "mod"))
      return checkModularPower(ctx, call);
    if (isPow)
      return checkPower(ctx, call, "**", argument(call, 0, "base"), argument(call, 1, "exp"));
    // numpy computes with Python ints beyond int64 as objects: `np.power(2,
    // 2**64)` is `2 ** 2**64`, and its ufunc methods apply it to items ivc
    // does not see.
    if (v.kind == ValueKind::Qualified && isOneOf(v.text, {"numpy.power", "numpy.left_shift"}))
      return checkPower(ctx, call, v.text == "numpy.power" ? "**" : "<<", positionalArgument(call, 0),
                        positionalArgument(call, 1));
    if (v.kind == ValueKind::Qualified &&
        (v.text.starts_with("numpy.power.") || v.text.starts_with("numpy.left_shift.")))
      return report(ctx, call, "applies an integer power or shift to items ivc does not size");
    if ((v.kind == ValueKind::Builtin && v.text == "divmod") ||
        (v.kind == ValueKind::Qualified && isOneOf(v.text, {"math.isqrt", "operator.mod",
                                                             "operator.floordiv"})))
      return checkDivision(ctx, call, positionalArgument(call, 0), positionalArgument(call, 1));
    // operator.mul is `*`, a repetition or a product.
    if (v.kind == ValueKind::Qualified && v.text == "operator.mul")
      return checkRepetition(ctx, call, argument(call, 0, "a"), argument(call, 1, "b"));
    if (std::optional<std::string> why = costHandedOn(ctx, call, v))
      return report(ctx, call, *why);
    if (std::optional<std::string> why = unboundedCall(ctx, call, v, args))
      return report(ctx, call, *why);
  }
}

} // namespace

constexpr std::string_view NestsInLoop =
    "nests a value in itself at every turn of a loop (walking it recurses in C)";
constexpr std::string_view RepeatsInLoop = "repeats a sequence at every turn of a loop";

/// Whether `display` is the value of an unpacking assignment (`a, b = x, y`).
static bool unpackedAtOnce(RuleContext &ctx, const Op &display) {
  const Op *user = ctx.values.uses().userOf(&display);
  if (!user || !user->is(OpKind::Assign) || user->operands.back() != &display)
    return false;
  for (size_t i = 0; i + 1 < user->operands.size(); ++i)
    if (const Op *t = user->operand(i); t && (t->is(OpKind::Tuple) || t->is(OpKind::List)))
      return true;
  return false;
}

/// `[xs, xs, ..., xs]` of a 2^22-item xs: cheap to build, but torch.tensor,
/// str and == walk every reference. An item too big by itself is judged
/// where it was made; `a, b = r, 0` keeps no display.
static std::optional<std::string> displayReach(RuleContext &ctx, const Op &display) {
  if (display.ctx != Ctx::Load || display.operands.size() < 2 || unpackedAtOnce(ctx, display))
    return std::nullopt;
  std::optional<Extent> e = ExtentOf(ctx).of(&display);
  if (!e || llvm::any_of(display.operands, [&](const Op *item) {
        std::optional<Extent> inner = ExtentOf(ctx).of(item);
        return inner && inner->excess();
      }))
    return std::nullopt;
  return e->excess();
}

void checkIteration(Op &op, RuleContext &ctx) {
  const Op *iterable = nullptr;
  switch (op.kind) {
  case OpKind::For: case OpKind::CompFor:
    iterable = op.operand(1);
    break;
  case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp: case OpKind::GeneratorExp:
    iterable = op.operand(0);
    break;
  case OpKind::Starred:
    iterable = op.ctx == Ctx::Load ? op.operand(0) : nullptr;
    break;
  case OpKind::Assign: // `a, *rest = t`
    for (size_t i = 0; i + 1 < op.operands.size(); ++i)
      if (const Op *t = op.operand(i); t && (t->is(OpKind::Tuple) || t->is(OpKind::List)))
        iterable = op.operands.back();
    break;
  default:
    return;
  }
  if (!iterable)
    return;
  if (std::optional<std::string> why = rowsIteratedCost(ctx, op, iterable)) {
    if (op.is(OpKind::Starred) || op.is(OpKind::Assign))
      return report(ctx, op, *why);
    report(ctx, *iterable, "is iterated, which " + *why); // (a loop's text is its body too)
  }
}

void checkCost(Op &op, RuleContext &ctx) {
  switch (op.kind) {
  case OpKind::Subscript:
    if (std::optional<std::string> why = gatherCost(ctx, op))
      report(ctx, op, *why);
    return;
  case OpKind::BinaryOp:
    if (nestsItselfInLoop(ctx, op))
      return report(ctx, op, NestsInLoop);
    if (std::optional<std::string> why = broadcastCost(ctx, op))
      return report(ctx, op, *why);
    return checkBinary(op, ctx);
  case OpKind::NamedExpr:
    if (walrusNestsInLoop(ctx, op))
      report(ctx, op, NestsInLoop);
    return;
  case OpKind::AugAssign: {
    if (std::optional<std::string> why = augmentedHashingCost(ctx, op))
      return report(ctx, op, *why);
    // `xs += range(n)` extends a list from the iterable in C, as extend does.
    if (op.text == "+=" && mayBeLongRange(ctx, op.operand(1)))
      return report(ctx, op, "iterates a range or combinatoric iterator whose length ivc cannot bound");
    checkBinary(op, ctx);
    const Symbol *list = symbolOf(ctx, op.operand(0));
    if (list && isOneOf(op.text, {"+=", "*="}) && inLoopOver(ctx, op, list))
      return report(ctx, op, "extends the list its loop iterates");
    if (list && op.text == "+=" && readsLazily(ctx, op.operand(1), list))
      return report(ctx, op, "extends a list from an iterator over itself");
    // `s *= 2` or `s += s` at every turn of a loop: geometric growth.
    bool doubles = op.text == "*=" || (op.text == "+=" && list && list == symbolOf(ctx, op.operand(1)));
    bool sequence = isSequence(ctx, op.operand(0)) ||
                    (op.text == "+=" && list && llvm::any_of(list->bindings, [&](const Binding &b) {
                       return b.kind == Binding::Kind::Assign && mayBindSequence(ctx, b.value);
                     }));
    if ((doubles && sequence && inLoopOver(ctx, op, nullptr)) ||
        growsByItselfInLoop(ctx, op))
      report(ctx, op, RepeatsInLoop);
    return;
  }
  case OpKind::FormatValue:
    if (std::optional<std::string> why = formatCost(ctx, op))
      report(ctx, op, *why);
    return;
  case OpKind::Assert: // `assert ok, xs`: a runtime writes xs out when it fails
    if (const Op *message = op.operand(1))
      if (std::optional<std::string> why = writtenOut(ctx, message))
        report(ctx, *message, *why);
    return;
  case OpKind::Tuple: case OpKind::List: {
    // `x = (x, x)` rebound line after line or in a loop.
    for (const Op *item : op.operands)
      if (const Symbol *s = symbolOf(ctx, item);
          s && selfReferences(ctx, op, s) >= 2 && compounds(ctx, item))
        return report(ctx, op, "nests a sequence in itself twice, which its rebinding doubles");
    if (std::optional<std::string> why = escapingRange(ctx, op))
      return report(ctx, op, *why);
    if (nestsItselfInLoop(ctx, op))
      return report(ctx, op, NestsInLoop);
    if (std::optional<std::string> why = displayReach(ctx, op))
      report(ctx, op, *why);
    return;
  }
  case OpKind::Call:
    if (nestsItselfInLoop(ctx, op) || storesItselfInLoop(ctx, op) || nestsByReduction(ctx, op))
      return report(ctx, op, NestsInLoop);
    if (growsByItselfInLoop(ctx, op))
      return report(ctx, op, RepeatsInLoop);
    return checkCallCost(op, ctx);
  case OpKind::Compare: {
    // `x in it` walks an iterator in C (a range answers at once).
    std::string_view ops = op.text;
    for (size_t i = 1; i < op.operands.size() && !ops.empty(); ++i) {
      std::string_view one = ops.substr(0, ops.find(','));
      ops = one.size() < ops.size() ? ops.substr(one.size() + 1) : std::string_view();
      const Op *it = op.operand(i);
      bool isRange = isRangeCall(ctx, valueBehindNames(ctx, it)); // also `big = range(n)`
      if ((one == "in" || one == "not in") && !isRange && mayBeLongRange(ctx, it))
        return report(ctx, op, "searches an iterator whose length ivc cannot bound");
    }
    return;
  }
  case OpKind::Set:
    if (std::optional<std::string> why = unpackedHashingCost(ctx, op))
      return report(ctx, op, *why);
    [[fallthrough]];
  case OpKind::Dict:
    if (std::optional<std::string> why = escapingRange(ctx, op))
      return report(ctx, op, *why);
    if (nestsItselfInLoop(ctx, op))
      return report(ctx, op, NestsInLoop);
    if (std::optional<std::string> why = displayReach(ctx, op))
      report(ctx, op, *why);
    return;
  case OpKind::Return: case OpKind::CompYield: case OpKind::Param: case OpKind::Assign:
    if (std::optional<std::string> why = escapingRange(ctx, op))
      return report(ctx, op, *why);
    if (growsByItselfInLoop(ctx, op)) // `s[len(s):] = s`
      return report(ctx, op, RepeatsInLoop);
    if (op.is(OpKind::Assign) && doublesItselfInLoop(ctx, op))
      report(ctx, *op.operand(1), "doubles a sequence that its own rebinding grows");
    return;
  case OpKind::Starred: // `f(*r)`, `[*r]`: unpacked in C, whatever receives it
    if (op.ctx == Ctx::Load && mayBeLongRange(ctx, op.operand(0)))
      report(ctx, op, "unpacks a range or combinatoric iterator whose length ivc cannot bound");
    return;
  case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp: {
    // A Python loop, interrupted at the deadline, but one that keeps all it
    // makes: the server's memory goes first. Only evident lengths: `range(n)`
    // of a length from a config is how traces walk layers.
    bool huge = mayBeLongRange(ctx, op.operand(0), /*evidently=*/true);
    for (const Region &r : op.regions)
      for (const Op *c : r.ops)
        huge |= c->is(OpKind::CompFor) &&
                mayBeLongRange(ctx, c->operand(1), /*evidently=*/true);
    if (huge)
      return report(ctx, op, "builds a collection of more than 2^24 items from a range");
    // `[row for _ in range(4096)]` of a 2^24-item row: cheap to build, but
    // `str`, `==` and `hash` walk every reference.
    if (op.is(OpKind::ListComp))
      if (std::optional<Extent> e = ExtentOf(ctx).of(&op))
        if (std::optional<std::string> why = e->excess())
          report(ctx, op, *why);
    return;
  }
  default:
    return;
  }
}

} // namespace ivc::rules
