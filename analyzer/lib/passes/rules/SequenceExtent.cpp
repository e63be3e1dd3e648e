//===- SequenceExtent.cpp - Lengths of sequences for the cost rules ------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

/// Whether `call` is `list(x)`, `tuple(x)` or `sorted(x)`: a sequence of
/// x's items.
static bool isListing(RuleContext &ctx, const Op &call) {
  const ValueSet &callee = ctx.valuesOf(call.operand(0));
  return call.operands.size() == 2 && !callee.empty() &&
         llvm::all_of(callee, [](const Value &v) {
           return v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "tuple", "sorted"});
         });
}

/// Whether `op` is made of sequences: a display, `list(x)`, or a `*` or
/// `+` of one, through names bound once (`b = list(r) * 16; c = b * 16`).
static bool madeOfSequences(RuleContext &ctx, const Op *op, int depth) {
  if (!op || depth > 8)
    return false;
  switch (op->kind) {
  case OpKind::List: case OpKind::Tuple: case OpKind::Str: case OpKind::Bytes:
  case OpKind::ListComp:
    return true;
  case OpKind::Call:
    return isListing(ctx, *op);
  case OpKind::Name: {
    const Op *v = op->ctx == Ctx::Load ? onlyAssignedValue(ctx, op) : nullptr;
    return v && v != op && madeOfSequences(ctx, v, depth + 1);
  }
  case OpKind::BinaryOp:
    return (op->text == "*" || op->text == "+") &&
           (madeOfSequences(ctx, op->operand(0), depth + 1) ||
            madeOfSequences(ctx, op->operand(1), depth + 1));
  default:
    return false;
  }
}

const Op *itemsPassedOn(RuleContext &ctx, const Op &call) {
  const ValueSet &callee = ctx.valuesOf(call.operand(0));
  if (callee.size() != 1 || callee[0].kind != ValueKind::Builtin)
    return nullptr;
  std::string_view f = callee[0].text;
  const Op *xs = nullptr;
  if (isOneOf(f, {"map", "filter"}) && call.operands.size() >= 3)
    xs = call.operand(2);
  else if (isOneOf(f, {"iter", "reversed"}) && call.operands.size() == 2)
    xs = call.operand(1);
  return xs && !xs->is(OpKind::Starred) && !xs->is(OpKind::Keyword) ? xs : nullptr;
}

bool isSequence(RuleContext &ctx, const Op *op) {
  if (op && (op->is(OpKind::Str) || op->is(OpKind::Bytes) || op->is(OpKind::FString) ||
             op->is(OpKind::List) || op->is(OpKind::Tuple) || op->is(OpKind::ListComp)))
    return true;
  // The target of `xs *= n`: what its other bindings made it.
  if (op && op->is(OpKind::Name) && op->ctx == Ctx::Store) {
    const Symbol *s = symbolOf(ctx, op);
    if (!s)
      return false;
    bool any = false;
    for (const Binding &b : s->bindings) {
      if (b.kind == Binding::Kind::AugAssign)
        continue;
      if (b.kind != Binding::Kind::Assign || !b.path.empty() || !isSequence(ctx, b.value))
        return false;
      any = true;
    }
    return any;
  }
  if (op && op->is(OpKind::Call) && isListing(ctx, *op))
    return true;
  if (madeOfSequences(ctx, op, 0))
    return true;
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && std::all_of(vs.begin(), vs.end(), [](const Value &v) {
    return v.kind == ValueKind::Str || v.kind == ValueKind::Container;
  });
}

bool maySequence(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  // (A slice of a module list is a tuple of envoys.)
  return vs.empty() || llvm::any_of(vs, [](const Value &v) {
    return v.kind == ValueKind::Unknown || v.kind == ValueKind::Method ||
           v.kind == ValueKind::Str || v.kind == ValueKind::Container ||
           v.kind == ValueKind::Envoy;
  });
}

std::optional<std::string> Extent::excess() const {
  double limit = text ? MaxFilledBytes : double(MaxElements);
  if (length > limit)
    return "makes a sequence of " + std::to_string(int64_t(length)) +
           (text ? " characters or bytes" : " items");
  if (!text && reach > limit)
    return "makes a nested sequence that reaches " + std::to_string(int64_t(reach)) + " items";
  return std::nullopt;
}

/// The most items a slice with constant, non-negative bounds takes
/// (`[:3]`, `[2:10:2]`), whatever it slices.
std::optional<double> ExtentOf::sliceLength(const Op &slice) {
  auto constant = [&](const Op *o, int64_t absent) -> std::optional<int64_t> {
    if (!o)
      return absent;
    Magnitude m = Sizer(ctx_).of(o);
    return m.value && *m.value >= 0 ? std::optional<int64_t>(*m.value) : std::nullopt;
  };
  std::optional<int64_t> lower = constant(slice.operand(0), 0), upper = constant(slice.operand(1), -1),
                         step = constant(slice.operand(2), 1);
  if (!lower || !upper || *upper < 0 || !step || *step < 1)
    return std::nullopt;
  return double((std::max<int64_t>(0, *upper - *lower) + *step - 1) / *step);
}

std::optional<Extent> ExtentOf::of(const Op *op, int depth) {
  // A bounded walk: displays of names of displays fan out.
  if (!op || depth > 8 || ++visits_ > 256)
    return std::nullopt;
  switch (op->kind) {
  case OpKind::Str: case OpKind::Bytes: {
    double n = double(op->text.size());
    return Extent{n, n, true};
  }
  case OpKind::List: case OpKind::Tuple: case OpKind::Set: case OpKind::Dict: {
    // (A dict's keys and values alternate; each pair is one item.)
    bool dict = op->is(OpKind::Dict);
    Extent e;
    for (size_t i = 0; i < op->operands.size(); ++i) {
      const Op *item = op->operand(i);
      if (dict && item && item->is(OpKind::KwSplat))
        return std::nullopt; // `{**d}`: what d holds
      if (!item)
        return std::nullopt;
      if (item->is(OpKind::Starred)) { // `[*range(n)]`: each item it spreads
        std::optional<double> k = iterableLength(ctx_, item->operand(0));
        if (!k)
          return std::nullopt;
        e.length += *k;
        e.reach += *k;
        continue;
      }
      std::optional<Extent> inner = ofItem(item, depth + 1);
      e.length += dict ? 0.5 : 1;
      e.reach += 1 + (inner && !inner->text ? inner->reach : 0);
      e.chars += inner ? (inner->text ? inner->length : inner->chars) : 0; // nested ones' too
    }
    return e;
  }
  case OpKind::Subscript: { // a slice is no longer (`t.tolist()[::1]`), nor than its bounds
    const Op *slice = op->operand(1);
    if (!slice || !slice->is(OpKind::Slice))
      return std::nullopt;
    std::optional<Extent> base = of(op->operand(0), depth + 1);
    std::optional<double> most = sliceLength(*slice);
    if (base && most)
      base->length = std::min(base->length, *most);
    return base ? base : most ? std::optional<Extent>(Extent{*most, *most}) : std::nullopt;
  }
  case OpKind::BinaryOp: return ofBinary(*op, depth);
  case OpKind::Name: return of(onlyAssignedValue(ctx_, op), depth + 1);
  case OpKind::Call: { // `list(range(n))`, `tuple(s)`, `map(f, xs)`: one item each at most
    if (std::optional<double> n = listedNumbers(ctx_, op)) // `t.tolist()`: its numbers
      return Extent{*n, *n};
    if (std::optional<Extent> e = ofItemsCarried(*op, depth))
      return e;
    const Op *items = isListing(ctx_, *op) ? op->operand(1) : itemsPassedOn(ctx_, *op);
    if (!items)
      return std::nullopt;
    std::optional<double> n = iterableLength(ctx_, items);
    return n ? std::optional<Extent>(Extent{*n, *n}) : std::nullopt;
  }
  case OpKind::ListComp: return ofComprehension(*op, depth);
  default: return std::nullopt;
  }
}

std::optional<Extent> ExtentOf::ofItemsCarried(const Op &call, int depth) {
  // What copies, filters, reorders, chains or pairs up the items of its
  // arguments holds what they hold at most: `list(reversed(xs))`,
  // `sorted(xs, key=f)`, `xs.copy()`, `filter(f, xs)`, `zip(xs, ys)`,
  // `enumerate(xs)`, `dict(k=xs)`, `deque(xs)`, `itertools.chain(xs, ys)`.
  const ValueSet &callee = ctx_.valuesOf(call.operand(0));
  if (callee.size() != 1)
    return std::nullopt;
  const Value &v = callee[0];
  const Op *attr = call.operand(0);
  if (v.kind == ValueKind::Method && v.text == "copy" && call.operands.size() == 1 && attr &&
      attr->is(OpKind::Attribute)) // (a sequence's copy: what is not one has no extent)
    return of(attr->operand(0), depth + 1);
  std::string_view f = v.kind == ValueKind::Builtin ? v.text
                       : v.kind == ValueKind::Qualified &&
                               isOneOf(v.text, {"collections.deque", "itertools.chain"})
                           ? v.text.substr(v.text.find('.') + 1)
                           : std::string_view();
  if (f.empty())
    return std::nullopt;
  std::vector<const Op *> args(call.operands.begin() + 1, call.operands.end());
  if (llvm::any_of(args, [](const Op *a) {
        return !a || a->is(OpKind::Starred) || a->is(OpKind::KwSplat);
      }))
    return std::nullopt;
  if (f == "sorted") // its key and order choose no items
    llvm::erase_if(args, [](const Op *a) {
      return a->is(OpKind::Keyword) && isOneOf(a->text, {"key", "reverse"});
    });
  if (f == "filter" && args.size() == 2)
    args.erase(args.begin()); // the predicate
  bool keywords = llvm::any_of(args, [](const Op *a) { return a->is(OpKind::Keyword); });
  if (f == "dict" && keywords) {
    Extent e;
    for (const Op *a : args) {
      if (!a->is(OpKind::Keyword))
        return std::nullopt;
      std::optional<Extent> inner = ofItem(a->operand(0), depth + 1);
      e.length += 1;
      e.reach += 1 + (inner && !inner->text ? inner->reach : 0);
      e.chars += inner ? (inner->text ? inner->length : inner->chars) : 0;
    }
    return e;
  }
  if (keywords || args.empty())
    return std::nullopt;
  if (args.size() == 1 && isOneOf(f, {"list", "tuple", "sorted", "reversed", "iter", "set",
                                      "frozenset", "enumerate", "filter", "deque", "dict"})) {
    std::optional<Extent> e = of(args[0], depth + 1);
    if (e && f == "enumerate") // a pair and an index each
      e->reach += 2 * e->length;
    return e && !e->text ? e : std::nullopt;
  }
  if (f != "zip" && f != "chain")
    return std::nullopt;
  Extent e{f == "zip" ? HUGE_VAL : 0.0, 0};
  for (const Op *a : args) {
    std::optional<Extent> inner = of(a, depth + 1);
    if (!inner)
      return std::nullopt;
    e.length = f == "zip" ? std::min(e.length, inner->length) : e.length + inner->length;
    e.reach += inner->text ? inner->length : inner->reach;
    e.chars += inner->text ? inner->length : inner->chars;
  }
  if (f == "zip")
    e.reach += e.length; // a tuple each
  return e;
}

std::optional<double> textLength(RuleContext &ctx, const Op *op) {
  std::optional<Extent> e = ExtentOf(ctx).of(op);
  return e && e->text ? std::optional<double>(e->length) : std::nullopt;
}

bool isRangeCall(RuleContext &ctx, const Op *op) {
  return op && op->is(OpKind::Call) &&
         llvm::any_of(ctx.valuesOf(op->operand(0)), [](const Value &v) {
           return v.kind == ValueKind::Builtin && v.text == "range";
         });
}

std::optional<double> iterableLength(RuleContext &ctx, const Op *op) {
  if (isRangeCall(ctx, op))
    return rangeLength(ctx, positionalArguments(*op));
  std::optional<Extent> e = ExtentOf(ctx).of(op);
  return e ? std::optional<double>(e->length) : std::nullopt;
}

std::optional<Extent> ExtentOf::ofItem(const Op *item, int depth) {
  // A range is lazy by itself, but what takes the display in (torch.tensor,
  // np.array, a copy) makes each of its numbers: `[range(2**13)] * 2**15`.
  const Op *value = item;
  for (int i = 0; i < 8 && value && value->is(OpKind::Name) && value->ctx == Ctx::Load; ++i)
    value = onlyAssignedValue(ctx_, value);
  if (isRangeCall(ctx_, value))
    if (std::optional<double> n = iterableLength(ctx_, value))
      return Extent{*n, *n};
  return of(item, depth);
}

std::optional<Extent> ExtentOf::ofComprehension(const Op &comp, int depth) {
  // One `for` over a sized iterable (filters only shorten it): its length
  // times what each element reaches (`[row for _ in range(4096)]`).
  const Op *element = nullptr;
  for (const Region &r : comp.regions)
    for (const Op *c : r.ops) {
      if (c->is(OpKind::CompFor) && c->operand(1))
        return std::nullopt; // a second `for`
      if (c->is(OpKind::CompYield))
        element = c->operand(0);
    }
  std::optional<double> n = iterableLength(ctx_, comp.operand(0));
  if (!n)
    return std::nullopt;
  std::optional<Extent> inner = ofItem(element, depth + 1);
  double each = inner && !inner->text ? inner->reach : 0;
  return Extent{*n, *n * (1 + each), false,
                inner ? *n * (inner->text ? inner->length : inner->chars) : 0};
}

std::optional<Extent> ExtentOf::ofBinary(const Op &op, int depth) {
  const Op *l = op.operand(0), *r = op.operand(1);
  if (op.text == "+") {
    std::optional<Extent> a = of(l, depth + 1), b = of(r, depth + 1);
    if (!a || !b)
      return std::nullopt;
    return Extent{a->length + b->length, a->reach + b->reach, a->text, a->chars + b->chars};
  }
  if (op.text != "*")
    return std::nullopt;
  bool lSeq = isSequence(ctx_, l);
  if (lSeq == isSequence(ctx_, r))
    return std::nullopt;
  std::optional<Extent> e = of(lSeq ? l : r, depth + 1);
  Magnitude count = Sizer(ctx_).of(lSeq ? r : l);
  if (!count.value) // `[x] * max(len(h), 2**23)`: at least its number
    count = countBound(ctx_, lSeq ? r : l);
  if (!e || !count.value)
    return std::nullopt;
  double n = std::max(0.0, double(*count.value));
  return Extent{e->length * n, e->reach * n, e->text, e->chars * n};
}

} // namespace ivc::rules::cost
