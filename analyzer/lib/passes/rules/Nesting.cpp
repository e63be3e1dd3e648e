//===- Nesting.cpp - Loops, and values a loop nests in themselves ---------===//
//
// Where an op runs (inside which loop, in which statement), for the cost
// rules, and values a loop stores again where it read them (IVC312):
// `it = zip(it)`, `x = (x,)`, `a[0] = (a[0],)` or `s.append((s.pop(),))`
// nest once more at every turn, and a C walk of the result (`next`, `hash`)
// recurses once per level, past the end of the stack.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

bool isLoop(const Op &op) {
  return op.is(OpKind::For) || op.is(OpKind::ListComp) || op.is(OpKind::SetComp) ||
         op.is(OpKind::DictComp) || op.is(OpKind::GeneratorExp);
}

bool isScopeBoundary(const Op &op) {
  return op.is(OpKind::FunctionDef) || op.is(OpKind::Lambda) || op.is(OpKind::ClassDef);
}

/// The ops `op` runs inside, innermost first, in its function and within
/// the mediator: a loop around the trace runs the mediator again, not its
/// code many times.
template <typename F> bool anyEnclosing(RuleContext &ctx, const Op &op, F &&f) {
  for (const Op *p = op.parentOp(); p && !isScopeBoundary(*p) && p != ctx.m.mediator.withOp;
       p = p->parentOp())
    if (f(*p))
      return true;
  return false;
}

} // namespace

/// Whether `op` runs inside a loop, in the same function, that iterates
/// `target` (or any loop, when `target` is null).
bool inLoopOver(RuleContext &ctx, const Op &op, const Symbol *target) {
  return anyEnclosing(ctx, op, [&](const Op &p) {
    if (!isLoop(p))
      return false;
    if (!target)
      return true;
    // A for statement's iterable is its second operand; a comprehension's
    // first iterable is its operand, the others are in its comp_for ops.
    if (symbolOf(ctx, p.operand(p.is(OpKind::For) ? 1 : 0)) == target)
      return true;
    if (!p.is(OpKind::For))
      for (const Region &r : p.regions)
        for (const Op *c : r.ops)
          if (c->is(OpKind::CompFor) && symbolOf(ctx, c->operand(1)) == target)
            return true;
    return false;
  });
}

double timesRun(RuleContext &ctx, const Op &op) {
  double times = 1;
  anyEnclosing(ctx, op, [&](const Op &p) {
    if (p.is(OpKind::While)) {
      times = HUGE_VAL;
      return true;
    }
    if (isLoop(p)) {
      std::optional<double> n = iterableLength(ctx, p.operand(p.is(OpKind::For) ? 1 : 0));
      times *= n ? std::max(*n, 0.0) : HUGE_VAL;
    }
    return false;
  });
  return times;
}

/// The statement an expression op belongs to: the first statement after it
/// in its region (an expression's ops precede the statement that uses them).
const Op *statementOf(const Op &op) {
  if (op.cls() == OpClass::Stmt)
    return &op;
  if (!op.parentRegion)
    return nullptr;
  bool after = false;
  for (const Op *c : op.parentRegion->ops) {
    if (c == &op)
      after = true;
    else if (after && c->cls() == OpClass::Stmt)
      return c;
  }
  return nullptr;
}

/// A callee whose result iterates its arguments lazily: a Python loop over
/// it releases the GIL between items.
bool isLazyWrapper(const Value &v) {
  return (v.kind == ValueKind::Builtin &&
          isOneOf(v.text, {"enumerate", "zip", "reversed", "map", "filter", "iter"})) ||
         (v.kind == ValueKind::Qualified && v.text.starts_with("itertools.") &&
          !isCombinatoric(v)); // those copy their inputs first
}

bool readsLazily(RuleContext &ctx, const Op *op, const Symbol *list, int depth) {
  if (!op || !list || depth > 8)
    return false;
  auto reads = [&](const Op *o) {
    return symbolOf(ctx, o) == list || readsLazily(ctx, o, list, depth + 1);
  };
  if (op->is(OpKind::GeneratorExp))
    return reads(op->operand(0));
  if (op->is(OpKind::Name) && op->ctx == Ctx::Load)
    if (const Symbol *s = symbolOf(ctx, op); s && s != list)
      return llvm::any_of(s->bindings, [&](const Binding &b) {
        return (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus) &&
               b.path.empty() && readsLazily(ctx, b.value, list, depth + 1);
      });
  if (!op->is(OpKind::Call))
    return false;
  // (A reversed list iterator counts down from the length it started at.)
  bool lazy = llvm::any_of(ctx.valuesOf(op->operand(0)), [](const Value &v) {
    return isLazyWrapper(v) && !(v.kind == ValueKind::Builtin && v.text == "reversed");
  });
  return lazy && llvm::any_of(positionalArguments(*op), reads);
}

bool readsLazily(RuleContext &ctx, const Op *op, const Symbol *list) {
  return readsLazily(ctx, op, list, 0);
}

bool growsWhatItIterates(RuleContext &ctx, const Op &call) {
  std::vector<const Op *> args = positionalArguments(call);
  for (const Op *a : args) {
    if (!a || !a->is(OpKind::Attribute) || !isOneOf(a->text, {"append", "extend", "insert"}))
      continue;
    const Symbol *list = symbolOf(ctx, a->operand(0));
    if (list && llvm::any_of(args, [&](const Op *o) {
          return o != a && (symbolOf(ctx, o) == list || readsLazily(ctx, o, list));
        }))
      return true;
  }
  return false;
}

namespace {

/// The name an expression reads its value from: `a` for `a`, `a[0]`,
/// `a.x` and `a.pop()`, or null.
const Symbol *rootSymbol(RuleContext &ctx, const Op *op) {
  for (int depth = 0; op && depth < 8; ++depth) {
    if (op->is(OpKind::Name))
      return symbolOf(ctx, op);
    if (!(op->is(OpKind::Subscript) || op->is(OpKind::Attribute) || op->is(OpKind::Call)))
      return nullptr;
    op = op->operand(0);
  }
  return nullptr;
}

/// Whether a subscript's index is a constant key or position: `a[1]`,
/// `a[-1]`, `d["k"]`. A slice is the sequence again (`t[:]` of a tuple is t),
/// and so may be a name (`s = slice(None)`).
bool itemIndex(const Op *index) {
  if (index && index->is(OpKind::UnaryOp) && index->text == "-")
    index = index->operand(0);
  return index && (index->is(OpKind::Int) || index->is(OpKind::Str));
}

/// How many levels below its root name an expression reads: 2 for
/// `a[0][1]`; 0 when anything but item subscripts stands between (`a.pop()`
/// may return anything the container holds, at any depth; `a[:]` is a).
int subscriptDepth(const Op *op) {
  int n = 0;
  for (; op && op->is(OpKind::Subscript) && itemIndex(op->operand(1)); op = op->operand(0))
    ++n;
  return op && op->is(OpKind::Name) ? n : 0;
}

/// How many levels below its root name a target stores: 1 for `a[0]` and
/// `o.x`.
int targetDepth(const Op *op) {
  int n = 0;
  for (; op && (op->is(OpKind::Subscript) || op->is(OpKind::Attribute)); op = op->operand(0))
    ++n;
  return n;
}

/// A name a value holds (null: any), and how much deeper than it was read there: in
/// `(a[1], h)` the item a[1] sits one level down, where it was read, so
/// storing that in `a` again nests nothing deeper (a sliding window); in
/// `(a,)` or `([a[0]],)` it sits one level deeper.
struct Held {
  const Symbol *symbol;
  int deeper;
};

/// Whether `held` is bound again to `target` by name (`t = (x,)` then
/// `x = t`): one step of aliasing, whole values only.
bool reboundFrom(RuleContext &ctx, const Symbol *held, const Symbol *target) {
  return llvm::any_of(held->bindings, [&](const Binding &b) {
    return b.kind == Binding::Kind::Assign && b.path.empty() && b.value &&
           b.value->is(OpKind::Name) && symbolOf(ctx, b.value) == target;
  });
}

/// Whether storing a value that holds `held` at `storedDepth` levels below
/// `target`'s root nests that root in itself once more: directly, or
/// through a name the target is copied back into.
bool nestsDeeper(RuleContext &ctx, llvm::ArrayRef<Held> held, const Symbol *target,
                 int storedDepth) {
  return target && llvm::any_of(held, [&](const Held &h) {
    return h.deeper + storedDepth > 0 &&
           (!h.symbol || h.symbol == target ||
            (storedDepth == 0 && reboundFrom(ctx, h.symbol, target)));
  });
}

bool isDisplay(const Op &op) {
  return op.is(OpKind::Tuple) || op.is(OpKind::List) || op.is(OpKind::Set) ||
         op.is(OpKind::Dict);
}

bool returnsItsParameter(RuleContext &ctx, const Op &fn, int depth);

bool isConstructor(const Value &v) {
  return v.kind == ValueKind::Builtin &&
         isOneOf(v.text, {"tuple", "list", "set", "frozenset", "dict", "sorted"});
}

/// Whether `op` keeps what its operands are: a display; a call of a
/// wrapper or constructor that keeps its arguments or their items (`zip`,
/// `map`, `partial`, `tuple`, `list`) or of a function that returns one
/// holding its parameter (`def wrap(v): return (v,)`); a concatenation or
/// repetition of a display (`(o,) + ()`).
bool keepsOperands(RuleContext &ctx, const Op &op, int depth = 0) {
  if (isDisplay(op))
    return true;
  if (op.is(OpKind::BinaryOp) && (op.text == "+" || op.text == "*"))
    return llvm::any_of(op.operands, [](const Op *o) { return o && isDisplay(*o); });
  if (!op.is(OpKind::Call))
    return false;
  return llvm::any_of(ctx.valuesOf(op.operand(0)), [&](const Value &v) {
    if (v.kind == ValueKind::UserFunction || v.kind == ValueKind::Lambda)
      return v.op && depth < 2 && returnsItsParameter(ctx, *v.op, depth + 1);
    return isLazyWrapper(v) || isConstructor(v) ||
           (v.kind == ValueKind::Qualified && v.text == "functools.partial");
  });
}

/// Whether `op` holds its operands' items rather than the operands (`tuple(x)`
/// copies x's items; `x + [1]` holds no `x`): only displays in them count.
bool holdsItemsOnly(RuleContext &ctx, const Op &op) {
  return op.is(OpKind::BinaryOp) ||
         (op.is(OpKind::Call) && llvm::all_of(ctx.valuesOf(op.operand(0)), isConstructor));
}

/// Whether what `op` evaluates to cannot hold a Python object it was given:
/// a number, a string, a tensor.
bool holdsNoObjects(RuleContext &ctx, const Op &op) {
  const ValueSet &vs = ctx.valuesOf(&op);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    switch (v.kind) {
    case ValueKind::Number: case ValueKind::Str: case ValueKind::Bool:
    case ValueKind::NoneValue: case ValueKind::Tensor: case ValueKind::Activation:
      return true;
    default: return false;
    }
  });
}

/// What may hold what `item` holds, and be it or a piece of it: the
/// display or keeper under a subscript (`(t, t)[:1]`, `[it][0]`), what a
/// name bound once holds (`b = [a]` then `tuple(b)`), or a call that may
/// hand back its arguments or their items (`next(zip([t]))`, `max([(t,)])`,
/// `nnsight.apply(f, it)`). Null when nothing is behind it.
const Op *behind(RuleContext &ctx, const Op &item) {
  if (item.is(OpKind::Subscript) && item.operand(0) && !item.operand(0)->is(OpKind::Name))
    return item.operand(0);
  if (item.is(OpKind::Name))
    if (const Op *v = onlyAssignedValue(ctx, &item);
        v && (isDisplay(*v) || v->is(OpKind::Call) || v->is(OpKind::ListComp) ||
              v->is(OpKind::GeneratorExp)))
      return v;
  return nullptr;
}

void heldRoots(RuleContext &ctx, const Op &op, llvm::SmallVectorImpl<Held> &held, int depth = 0);

/// What `item` holds, placed `at` levels below the value being judged:
/// its own name, what a display or keeper it is holds, and what code adds
/// to the container it names, one level further down. Where `op` keeps
/// only its operands' items (`tuple(l)`), those sit at `at` themselves.
void holdItem(RuleContext &ctx, const Op *item, llvm::SmallVectorImpl<Held> &held, int at,
              bool itemsOnly = false) {
  if (!item || holdsNoObjects(ctx, *item))
    return;
  // Past this depth or this many names, what else it holds is not
  // followed: it may hold anything (a null symbol), itself included.
  if (at > 5 || held.size() > 256) {
    if (held.empty() || held.back().symbol)
      held.push_back({nullptr, 1});
    return;
  }
  if (isDisplay(*item) || item->is(OpKind::Call) || item->is(OpKind::ListComp) ||
      item->is(OpKind::GeneratorExp))
    heldRoots(ctx, *item, held, at);
  else if (const Op *inner = behind(ctx, *item))
    heldRoots(ctx, *inner, held, at);
  // A method may give back its receiver or what it holds (`d.values()`);
  // counted a level deeper, which also ends `x = y.m(); y = x.m()`.
  if (item->is(OpKind::Call) && item->operand(0) && item->operand(0)->is(OpKind::Attribute))
    holdItem(ctx, item->operand(0)->operand(0), held, at + 1);
  int below = itemsOnly ? at : at + 1;
  if (!itemsOnly)
    if (const Symbol *s = rootSymbol(ctx, item))
      held.push_back({s, at - subscriptDepth(item)});
  // What code adds to the container it names (a sequence's items a level
  // too deep: `l.extend(l)` must end).
  if (const Symbol *s = item->is(OpKind::Name) ? symbolOf(ctx, item) : nullptr)
    for (const Addition &a : additionsTo(ctx, *s, /*deep=*/false))
      holdItem(ctx, a.value, held, below);
}

/// The names whose values `op`, which keeps its operands, holds: through
/// nested displays, keepers, comprehensions, what stands behind an item
/// and what code adds to a container in place (`[(a[0],)]` holds `a`, one
/// level deeper). Depth only grows on the way down, so a piece taken back
/// out is counted too deep: the safe side.
void heldRoots(RuleContext &ctx, const Op &op, llvm::SmallVectorImpl<Held> &held,
               int depth) {
  bool itemsOnly = holdsItemsOnly(ctx, op);
  // A comprehension holds its iterable's items and what it yields.
  if (op.is(OpKind::ListComp) || op.is(OpKind::GeneratorExp) || op.is(OpKind::SetComp) ||
      op.is(OpKind::DictComp)) {
    for (const Region &r : op.regions)
      for (const Op *c : r.ops)
        if (c->is(OpKind::CompYield))
          for (const Op *o : c->operands)
            if (o && (isDisplay(*o) || o->is(OpKind::Call)))
              holdItem(ctx, o, held, depth + 1);
  }
  for (size_t i = op.is(OpKind::Call) ? 1 : 0; i < op.operands.size(); ++i) {
    const Op *item = op.operand(i);
    if (item && (item->is(OpKind::Starred) || item->is(OpKind::Keyword)))
      item = item->operand(0);
    holdItem(ctx, item, held, depth + 1, itemsOnly);
  }
}

bool isParameter(const Symbol *s) {
  return s && llvm::any_of(s->bindings,
                           [](const Binding &b) { return b.kind == Binding::Kind::Param; });
}

/// Whether a def or lambda returns what keeps one of its parameters.
bool returnsItsParameter(RuleContext &ctx, const Op &fn, int depth) {
  for (const Op *ret : returnsOf(fn)) {
    if (ret->operand(0) && keepsOperands(ctx, *ret->operand(0), depth)) {
      llvm::SmallVector<Held, 4> held;
      heldRoots(ctx, *ret->operand(0), held);
      // Whatever depth: a caller may store the result deeper still.
      if (llvm::any_of(held, [](const Held &h) { return isParameter(h.symbol); }))
        return true;
    }
  }
  return false;
}

/// Whether `value` is `rhs` or may be all or part of what `rhs` evaluates
/// to: under subscripts and calls (`(t, t)[:1]`, `next(zip([t]))`), not
/// under what holds no objects (`torch.cat([x, h])`, `len([t])`).
bool flowsInto(RuleContext &ctx, const Op *rhs, const Op *value, int depth = 0) {
  if (rhs == value)
    return true;
  if (!rhs || depth > 6 || holdsNoObjects(ctx, *rhs))
    return false;
  // Either side of `c if p else d` and `a or b` is what it gives.
  if (rhs->is(OpKind::IfExp))
    return flowsInto(ctx, rhs->operand(1), value, depth + 1) ||
           flowsInto(ctx, rhs->operand(2), value, depth + 1);
  if (rhs->is(OpKind::BoolOp))
    return flowsInto(ctx, rhs->operand(0), value, depth + 1) ||
           flowsInto(ctx, rhs->operand(1), value, depth + 1);
  if (!(rhs->is(OpKind::Subscript) || rhs->is(OpKind::Call)))
    return false;
  for (size_t i = rhs->is(OpKind::Subscript) ? 0 : 1; i < rhs->operands.size(); ++i) {
    const Op *o = rhs->operand(i);
    if (o && (o->is(OpKind::Starred) || o->is(OpKind::Keyword)))
      o = o->operand(0);
    if (flowsInto(ctx, o, value, depth + 1))
      return true;
    if (rhs->is(OpKind::Subscript))
      break; // not through the index
  }
  return false;
}

/// The target an assignment statement stores `value` in, when `value` is
/// (or flows into) its value or an item of a display it unpacks (`o, _ =
/// (o,), 0`).
llvm::SmallVector<const Op *, 2> targetsOf(RuleContext &ctx, const Op &stmt, const Op &value) {
  llvm::SmallVector<const Op *, 2> targets;
  if (stmt.is(OpKind::AugAssign) && stmt.operand(1) == &value)
    targets.push_back(stmt.operand(0));
  if (!stmt.is(OpKind::Assign) || stmt.operands.empty())
    return targets;
  const Op *rhs = stmt.operands.back();
  for (size_t t = 0; t + 1 < stmt.operands.size(); ++t) {
    const Op *target = stmt.operand(t);
    if (flowsInto(ctx, rhs, &value))
      targets.push_back(target);
    else if (rhs && target && isDisplay(*rhs) && isDisplay(*target) &&
             rhs->operands.size() == target->operands.size())
      for (size_t i = 0; i < rhs->operands.size(); ++i)
        if (rhs->operand(i) == &value)
          targets.push_back(target->operand(i));
  }
  return targets;
}

} // namespace

/// Whether `op`, which keeps its operands, is what a loop stores again where
/// it read one of them: `it = zip(it)`, `x = (x,)`, `a[0] = (a[0],)`,
/// `o, _ = (o,), 0`, `o += (o,)`, `o = wrap(o)` nests once more at every
/// turn, and a C walk of the result (`next`, `hash`) recurses once per
/// level, past the end of the stack.
bool nestsItselfInLoop(RuleContext &ctx, const Op &op) {
  if (!keepsOperands(ctx, op))
    return false;
  // A keeper inside another (under subscripts and calls) is judged, and
  // reported, as part of that one.
  UseIndex &uses = ctx.values.uses();
  for (const Op *user = uses.userOf(&op);
       user && (user->is(OpKind::Subscript) || user->is(OpKind::Call));
       user = uses.userOf(user))
    if (keepsOperands(ctx, *user))
      return false;
  // The names it holds, cheapest test first: most displays hold none.
  llvm::SmallVector<Held, 4> held;
  heldRoots(ctx, op, held);
  if (held.empty() || !inLoopOver(ctx, op, nullptr))
    return false;
  // Stored by an assignment, or bound by `:=` (`[o := (o,) for _ in r]`).
  if (const Op *stmt = statementOf(op))
    for (const Op *target : targetsOf(ctx, *stmt, op))
      if (nestsDeeper(ctx, held, rootSymbol(ctx, target), targetDepth(target)))
        return true;
  return false;
}

bool walrusNestsInLoop(RuleContext &ctx, const Op &walrus) {
  const Op *value = walrus.operand(0);
  if (!value || !keepsOperands(ctx, *value))
    return false;
  llvm::SmallVector<Held, 4> held;
  heldRoots(ctx, *value, held);
  const ScopeTree &scopes = ctx.values.scopes();
  const Symbol *bound = scopes.resolve(walrus.text, scopes.enclosingScope(&walrus)).symbol;
  return nestsDeeper(ctx, held, bound, 0) && inLoopOver(ctx, walrus, nullptr);
}

/// ...or handed to a method that stores it in the container it was read
/// from (`s.append((s.pop(),))`, `d.setdefault(k, [d])`).
bool storesItselfInLoop(RuleContext &ctx, const Op &call) {
  const Op *callee = call.operand(0);
  if (!callee || !callee->is(OpKind::Attribute) ||
      !isOneOf(callee->text, {"append", "appendleft", "insert", "add", "extend", "setdefault",
                              "update"}))
    return false;
  const Symbol *container = rootSymbol(ctx, callee->operand(0));
  if (!container)
    return false;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (a && a->is(OpKind::Keyword))
      a = a->operand(0);
    llvm::SmallVector<Held, 4> held;
    if (a && keepsOperands(ctx, *a))
      heldRoots(ctx, *a, held);
    // An item of the container, one level below where the call stores.
    if (nestsDeeper(ctx, held, container, targetDepth(callee->operand(0)) + 1))
      return inLoopOver(ctx, call, nullptr);
  }
  return false;
}

bool nestsByReduction(RuleContext &ctx, const Op &call) {
  for (const Value &v : ctx.valuesOf(call.operand(0))) {
    if (v.kind != ValueKind::Qualified ||
        !isOneOf(v.text, {"functools.reduce", "itertools.accumulate"}))
      continue;
    bool reduce = v.text == "functools.reduce";
    const Op *fn = argument(call, reduce ? 0 : 1, reduce ? "function" : "func");
    const Op *items = argument(call, reduce ? 1 : 0, "iterable");
    std::optional<double> n = iterableLength(ctx, items);
    if (n && *n <= 1024)
      continue;
    for (const Value &f : fn ? ctx.valuesOf(fn) : ValueSet{})
      if ((f.kind == ValueKind::UserFunction || f.kind == ValueKind::Lambda) && f.op &&
          returnsItsParameter(ctx, *f.op, 0))
        return true;
  }
  return false;
}

} // namespace ivc::rules::cost
