//===- InvokeLoop.cpp - Invokes opened in a loop of the trace's body ------===//
#include "InvokeLoop.h"

#include "llvm/ADT/STLExtras.h"

namespace ivc {

using namespace ir;

namespace {

bool contains(const SourceRange &outer, const SourceRange &inner) {
  return outer.begin.offset <= inner.begin.offset && inner.end.offset <= outer.end.offset;
}

bool namesOnly(const Op *target) {
  if (!target)
    return false;
  if (target->is(OpKind::Name))
    return true;
  return (target->is(OpKind::Tuple) || target->is(OpKind::List)) && !target->operands.empty() &&
         llvm::all_of(target->operands, namesOnly);
}

// The builtin a call's callee names, or "": a file may rebind `range`.
std::string_view builtinCallee(const Op *call, ValueAnalysis &values) {
  const Op *callee = call->operand(0);
  if (!callee || !callee->is(OpKind::Name))
    return {};
  const ValueSet &vs = values.valuesOf(callee);
  if (vs.size() != 1 || vs.begin()->kind != ValueKind::Builtin)
    return {};
  return vs.begin()->text;
}

// Deeper than any loop header a person writes: the IR of 65,536 nested
// brackets must not recurse as deep.
constexpr int MaxDepth = 16;
// The longest target or iterable named (a runtime's MAX_TEXT, ivc/_loops.py):
// a runtime parses the text once per invoke of the loop, and a display of a
// million numbers took it gigabytes.
constexpr uint32_t MaxText = 4096;

uint32_t length(const Op *op) { return op->range.end.offset - op->range.begin.offset; }

// An int or float literal, signed (`-1.0`).
bool signedNumber(const Op *op, bool intOnly) {
  if (op && op->is(OpKind::UnaryOp) && (op->text == "-" || op->text == "+"))
    op = op->operand(0);
  return op && (op->is(OpKind::Int) || (!intOnly && op->is(OpKind::Float)));
}

bool literalDisplay(const Op *op, int depth) {
  if (op->isConstant() || signedNumber(op, false))
    return true;
  return depth < MaxDepth && (op->is(OpKind::List) || op->is(OpKind::Tuple)) &&
         llvm::all_of(op->operands, [&](const Op *e) { return literalDisplay(e, depth + 1); });
}

// `len(name)`, which a runtime evaluates on the name's value.
bool lengthOfName(const Op *op, ValueAnalysis &values) {
  return op->is(OpKind::Call) && op->operands.size() == 2 && op->operand(1)->is(OpKind::Name) &&
         builtinCallee(op, values) == "len";
}

// `name.items()`, `.keys()` or `.values()`, which a runtime evaluates only
// on a dict.
bool dictView(const Op *op) {
  const Op *method = op->operand(0);
  return op->operands.size() == 1 && method && method->is(OpKind::Attribute) &&
         method->operand(0) && method->operand(0)->is(OpKind::Name) &&
         (method->text == "items" || method->text == "keys" || method->text == "values");
}

// `name[a:b:c]` with integer (or absent) bounds.
bool sliceOfName(const Op *op) {
  if (!op->is(OpKind::Subscript) || !op->operand(0)->is(OpKind::Name) || !op->operand(1) ||
      !op->operand(1)->is(OpKind::Slice))
    return false;
  return llvm::all_of(op->operand(1)->operands,
                      [](const Op *bound) { return !bound || signedNumber(bound, true); });
}

bool countable(const Op *iterable, ValueAnalysis &values, int depth = 0) {
  if (!iterable || depth > MaxDepth)
    return false;
  if (iterable->is(OpKind::Name) || sliceOfName(iterable))
    return true;
  if (iterable->is(OpKind::List) || iterable->is(OpKind::Tuple))
    return literalDisplay(iterable, depth);
  if (!iterable->is(OpKind::Call))
    return false;
  if (dictView(iterable))
    return true;
  std::span<Op *> args = iterable->operands.subspan(1);
  std::string_view f = builtinCallee(iterable, values);
  if (f == "enumerate" && args.size() == 2 && args[1]->is(OpKind::Keyword) &&
      args[1]->text == "start")
    return signedNumber(args[1]->operand(0), true) && countable(args[0], values, depth + 1);
  auto spread = [](const Op *a) { return a->cls() == OpClass::Part || a->is(OpKind::Starred); };
  if (llvm::any_of(args, spread))
    return false; // keywords, **mapping, *iterable
  auto bound = [&](const Op *a) {
    return a->is(OpKind::Name) || signedNumber(a, true) || lengthOfName(a, values);
  };
  if (f == "range")
    return !args.empty() && args.size() <= 3 && llvm::all_of(args, bound);
  if (f == "enumerate")
    return (args.size() == 1 || (args.size() == 2 && signedNumber(args[1], true))) &&
           countable(args[0], values, depth + 1);
  if (f == "zip")
    return !args.empty() &&
           llvm::all_of(args, [&](const Op *a) { return countable(a, values, depth + 1); });
  return false;
}

bool isInvokeOf(const TraceRegion &t, const Op *with) {
  return llvm::any_of(t.mediators, [&](const Mediator &m) {
    return m.kind == MediatorKind::Invoke && m.withOp == with;
  });
}

} // namespace

bool anyLoop(const TraceRegion &t, llvm::function_ref<bool(const Op &loop)> holds) {
  auto walk = [&](const Region &r, auto &self) -> bool {
    return llvm::any_of(r.ops, [&](const Op *op) {
      if ((op->is(OpKind::For) || op->is(OpKind::While)) && holds(*op))
        return true;
      return llvm::any_of(op->regions, [&](const Region &inner) { return self(inner, self); });
    });
  };
  return t.withOp && llvm::any_of(t.withOp->regions,
                                  [&](const Region &r) { return walk(r, walk); });
}

bool invokeInLoop(const TraceRegion &t, const Mediator &m) {
  return anyLoop(t, [&](const Op &loop) { return contains(loop.range, m.range); });
}

const Op *expandableLoop(const TraceRegion &t, const Mediator &m, ValueAnalysis &values) {
  if (!t.withOp || t.withOp->regions.empty() || m.kind != MediatorKind::Invoke)
    return nullptr;
  for (const Op *op : t.withOp->regions[0].ops) {
    if (!op->is(OpKind::For) || !contains(op->range, m.range))
      continue;
    if (op->isAsync || op->regions.size() != 2 || !op->regions[1].ops.empty())
      return nullptr;
    bool onlyInvokes = llvm::all_of(op->regions[0].ops, [&](const Op *s) {
      return s->cls() != OpClass::Stmt || (s->is(OpKind::With) && isInvokeOf(t, s));
    });
    if (!onlyInvokes || length(op->operand(0)) > MaxText || length(op->operand(1)) > MaxText ||
        !namesOnly(op->operand(0)) || !countable(op->operand(1), values))
      return nullptr;
    return op;
  }
  return nullptr;
}

} // namespace ivc
