//===- HashingCost.cpp - Sets and dicts filled in one call (IVC312) -------===//
//
// `set(xs)`, `dict.fromkeys(xs)`, `Counter(xs)`, `s.update(xs)` and `{*xs}`
// hash every item of `xs` in one C call, and items that hash alike make it
// quadratic: CPython's int hash is the value modulo 2^61 - 1, so
// `[i * (2**61 - 1) for i in range(n)]` is cheap to build, and tuples of
// small ints can be made to collide as well. 2^17 such items hold the
// server for a minute (CPython 3.11 here: 2^15 in 3 s), and no deadline
// stops a C call. Even a tensor's `tolist()` may be such items: complex
// numbers, whose hash adds their parts'. A FAST mediator may fill a set or
// dict in one call only from items that cannot collide that way, or that
// ivc counts below 2^12: a range, a string's characters or words, a set or
// dict built already, a generator (Python code the deadline interrupts),
// and lists, tuples, zips and enumerations of those; through a name only
// what nothing can have changed since (a list only when no read of it may
// change it: `xs.extend(...)`).
// Comprehensions (`{x for x in xs}`) insert one item per bytecode, so the
// deadline stops them as it stops any loop.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules {

using namespace ir;

namespace cost {

namespace {

/// More items than this, all colliding, take 2^24 probes: tens of ms.
constexpr double MaxBlindHashedItems = 1 << 12;

bool allValues(RuleContext &ctx, const Op *op, ValueKind kind) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [&](const Value &v) { return v.kind == kind; });
}

/// The callee of `call` when it has a single value.
const Value *onlyCallee(RuleContext &ctx, const Op *call) {
  if (!call || !call->is(OpKind::Call))
    return nullptr;
  const ValueSet &vs = ctx.valuesOf(call->operand(0));
  return vs.size() == 1 ? &vs[0] : nullptr;
}

bool isBuiltin(const Value *v, std::initializer_list<std::string_view> names) {
  return v && v->kind == ValueKind::Builtin && isOneOf(v->text, names);
}

/// Whether `op` is a set or dict made by a display or comprehension: its
/// items were hashed one bytecode at a time as it was built, and a second
/// pass costs what the first did.
bool alreadyHashed(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    return v.kind == ValueKind::Container && v.op &&
           (v.op->is(OpKind::Set) || v.op->is(OpKind::SetComp) || v.op->is(OpKind::Dict) ||
            v.op->is(OpKind::DictComp));
  });
}

/// What `op` slices (`xs[:3]`), or null.
const Op *slicedFrom(const Op *op) {
  return op && op->is(OpKind::Subscript) && op->operand(1) && op->operand(1)->is(OpKind::Slice)
             ? op->operand(0)
             : nullptr;
}

/// Whether the slice `op` takes too few items to matter, whatever it slices.
bool fewSliced(RuleContext &ctx, const Op &op) {
  std::optional<double> n = ExtentOf(ctx).sliceLength(*op.operand(1));
  return n && *n <= MaxBlindHashedItems;
}

/// Whether the items iterating `op` yields cannot make a set quadratic:
/// too few to matter, of a kind whose hashes do not collide in bulk, or
/// made by Python code the deadline interrupts.
bool harmlessItems(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return false;
  // str and bytes hash with a per-process random key; a set or dict was
  // hashed as it was filled, one item at a time or under this rule.
  if (allValues(ctx, op, ValueKind::Str) || alreadyHashed(ctx, op))
    return true;
  if (op->is(OpKind::Name)) {
    // Through a name only to a value nothing can change since: a list
    // bound to it may have been extended (`xs.extend(colliding)`).
    const Op *behind = onlyAssignedValue(ctx, op);
    bool unchanged = behind && (behind->is(OpKind::Tuple) || behind->is(OpKind::GeneratorExp) ||
                                ctx.values.unchanging(behind) ||
                                isRangeCall(ctx, behind) ||
                                isBuiltin(onlyCallee(ctx, behind),
                                          {"tuple", "zip", "enumerate", "reversed", "iter"}));
    return unchanged && harmlessItems(ctx, behind, depth + 1);
  }
  if (op->is(OpKind::GeneratorExp) || isRangeCall(ctx, op))
    return true;
  if (const Op *part = slicedFrom(op)) // few, or some of harmless items
    return fewSliced(ctx, *op) || harmlessItems(ctx, part, depth + 1);
  // A display's items, or a repetition of one, are few whatever they are.
  auto fewItems = [](const Op *d) {
    return d && (d->is(OpKind::Tuple) || d->is(OpKind::List)) &&
           d->operands.size() <= MaxBlindHashedItems &&
           llvm::none_of(d->operands, [](const Op *o) { return o && o->is(OpKind::Starred); });
  };
  if (fewItems(op) ||
      (op->is(OpKind::BinaryOp) && op->text == "*" && llvm::any_of(op->operands, fewItems)))
    return true;
  const Value *callee = onlyCallee(ctx, op);
  if (!callee)
    return false;
  if (callee->kind == ValueKind::Method)
    return callee->receiver == ValueKind::Str &&
           isOneOf(callee->text, {"split", "rsplit", "splitlines"});
  // A set or dict this rule judged where it was filled.
  if (isBuiltin(callee, {"set", "frozenset", "dict"}) ||
      (callee->kind == ValueKind::Qualified &&
       isOneOf(callee->text, {"collections.Counter", "collections.OrderedDict",
                              "collections.defaultdict"})))
    return true;
  // The same items, in another order or container.
  if (isBuiltin(callee, {"list", "tuple", "sorted", "reversed", "iter", "enumerate", "zip"})) {
    std::vector<const Op *> args = positionalArguments(*op);
    return !args.empty() && op->operands.size() == args.size() + 1 &&
           llvm::all_of(args, [&](const Op *a) { return harmlessItems(ctx, a, depth + 1); });
  }
  return false;
}

/// What `sorted(xs, key=...)`, `reversed(xs)`, `list(xs)` or `tuple(xs)`
/// reorders or copies: the same items, or null.
const Op *reordered(RuleContext &ctx, const Op *op) {
  if (!op || !op->is(OpKind::Call) ||
      !isBuiltin(onlyCallee(ctx, op), {"sorted", "reversed", "list", "tuple"}))
    return nullptr;
  std::vector<const Op *> args = positionalArguments(*op);
  bool onlyOrder = llvm::all_of(llvm::drop_begin(op->operands), [](const Op *a) {
    return a && (!a->is(OpKind::Keyword) || isOneOf(a->text, {"key", "reverse"})) &&
           !a->is(OpKind::Starred) && !a->is(OpKind::KwSplat);
  });
  return args.size() == 1 && onlyOrder ? args[0] : nullptr;
}

/// Whether the keys of the pairs `op` yields (`dict(pairs)`) are harmless:
/// an enumeration's are its counter, a zip's its first iterable's items, and
/// a dict's items, in any order, its own keys, hashed as it was filled
/// (`dict(sorted(d.items(), key=...))`).
bool harmlessKeys(RuleContext &ctx, const Op *op) {
  // Through a name, only to what nothing can change since: `p = list(...)`
  // may be extended with colliding pairs before `dict(p)`.
  for (int depth = 0; depth < 8; ++depth) {
    const Op *behind = valueBehindNames(ctx, op);
    if (const Op *part = slicedFrom(behind)) { // `dict(sorted(d.items(), key=f)[:3])`
      if (fewSliced(ctx, *behind))
        return true;
      op = part;
      continue;
    }
    const Op *inner = reordered(ctx, behind);
    if (!inner)
      break;
    if (behind != op && !isBuiltin(onlyCallee(ctx, behind), {"tuple", "reversed"}))
      return harmlessItems(ctx, op);
    op = inner;
  }
  const Op *pairs = valueBehindNames(ctx, op);
  if (pairs && pairs->is(OpKind::Call) && pairs->operand(0) &&
      pairs->operand(0)->is(OpKind::Attribute) && pairs->operand(0)->text == "items" &&
      pairs->operands.size() == 1 && alreadyHashed(ctx, pairs->operand(0)->operand(0)))
    return true;
  const Value *callee = onlyCallee(ctx, valueBehindNames(ctx, op));
  if (isBuiltin(callee, {"enumerate"}))
    return true;
  if (isBuiltin(callee, {"zip"}))
    return harmlessItems(ctx, positionalArgument(*valueBehindNames(ctx, op), 0));
  return harmlessItems(ctx, op);
}

/// Whether `op` is evidently not an iterable (`pbar.update(1)`).
bool notIterable(RuleContext &ctx, const Op *op) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    return v.kind == ValueKind::Number || v.kind == ValueKind::Bool ||
           v.kind == ValueKind::NoneValue;
  });
}

constexpr std::string_view Quadratic =
    "fills a set or dict in one call from items ivc cannot bound, and items that hash "
    "alike make that quadratic (build it with a comprehension)";

} // namespace

std::optional<std::string> hashingCost(RuleContext &ctx, const Op &call, const Value &callee) {
  // `set(*[xs])`: the items come from a spread ivc does not follow.
  bool spread =
      llvm::any_of(call.operands, [](const Op *a) { return a && a->is(OpKind::Starred); });
  auto need = [&](const Op *items, bool pairs) -> std::optional<std::string> {
    if (items ? (pairs ? harmlessKeys(ctx, items) : harmlessItems(ctx, items)) : !spread)
      return std::nullopt;
    return std::string(Quadratic);
  };
  std::string_view f = callee.text;
  switch (callee.kind) {
  case ValueKind::Builtin:
    if (isOneOf(f, {"set", "frozenset"}))
      return need(positionalArgument(call, 0), false);
    if (f == "dict")
      return need(positionalArgument(call, 0), true);
    return std::nullopt;
  case ValueKind::Qualified:
    if (isOneOf(f, {"collections.Counter", "collections.OrderedDict.fromkeys"}))
      return need(argument(call, 0, "iterable"), false);
    if (f == "collections.OrderedDict")
      return need(positionalArgument(call, 0), true);
    if (f == "collections.defaultdict")
      return need(positionalArgument(call, 1), true);
    return std::nullopt;
  case ValueKind::Method:
    if (f == "fromkeys")
      return need(argument(call, 0, "iterable"), false);
    // Set and dict methods that take iterables: on a container, or on a
    // value ivc cannot type, which may be one.
    if ((callee.receiver == ValueKind::Container || callee.receiver == ValueKind::Unknown) &&
        isOneOf(f, {"update", "union", "intersection", "difference", "symmetric_difference",
                    "issubset", "issuperset", "isdisjoint", "intersection_update",
                    "difference_update", "symmetric_difference_update", "subtract"}))
    {
      for (const Op *a : positionalArguments(call))
        if (!notIterable(ctx, a))
          if (std::optional<std::string> why = need(a, false))
            return why;
      return need(nullptr, false);
    }
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<std::string> augmentedHashingCost(RuleContext &ctx, const Op &op) {
  // `d |= pairs` updates a dict from any iterable of pairs, in one call.
  const Op *items = op.operand(1);
  if (op.text != "|=" || !items || allTensors(ctx, items) || notIterable(ctx, items) ||
      harmlessKeys(ctx, items))
    return std::nullopt;
  return std::string(Quadratic);
}

std::optional<std::string> unpackedHashingCost(RuleContext &ctx, const Op &set) {
  for (const Op *item : set.operands)
    if (item && item->is(OpKind::Starred) && !harmlessItems(ctx, item->operand(0)))
      return std::string(Quadratic);
  return std::nullopt;
}

} // namespace cost

} // namespace ivc::rules
