//===- ValueIteration.cpp - What iterating or unpacking a value yields ----===//
#include "ValueHelpers.h"

namespace ivc {

using namespace ir;
using namespace values;

ValueSet ValueAnalysis::elementAt(const ValueSet &values, llvm::ArrayRef<uint8_t> path) {
  // `a, b = f()` where f returns a tuple display: a is its first element.
  ValueSet out;
  for (const Value &v : values) {
    if (v.kind == ValueKind::Container && v.op &&
        (v.op->is(OpKind::Tuple) || v.op->is(OpKind::List)) && path[0] < v.op->operands.size() &&
        !v.op->operands[path[0]]->is(OpKind::Starred) && unchanging(v.op)) {
      const ValueSet &e = valuesOf(v.op->operands[path[0]]);
      addAll(out, path.size() > 1 ? elementAt(e, path.drop_front()) : e);
    } else if (v.kind == ValueKind::Method && v.text == "shape" &&
               (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation)) {
      addValue(out, make(ValueKind::Number)); // `b, t, d = h.shape`, as `h.shape[0]`
    } else if (v.kind == ValueKind::Activation || v.kind == ValueKind::Tensor) {
      // As an index is (`q, k, v = h.chunk(3)` as `h.chunk(3)[0]`): a
      // tensor's rows are tensors, and what the model gives is the model's.
      addValue(out, v);
    } else {
      addValue(out, Value::unknown());
    }
  }
  return out.empty() ? ValueSet{Value::unknown()} : out;
}

ValueSet ValueAnalysis::elementOf(const Op *iterable, llvm::ArrayRef<uint8_t> path) {
  if (!iterable)
    return {Value::unknown()};
  // enumerate(x), zip(a, b) and friends shape their elements.
  if (iterable->is(OpKind::Call)) {
    for (const Value &callee : valuesOf(iterable->operand(0))) {
      if (callee.kind != ValueKind::Builtin)
        continue;
      if (callee.text == "enumerate" && iterable->operands.size() >= 2) {
        if (path.empty())
          return {Value::unknown()};
        if (path[0] == 0)
          return {make(ValueKind::Number)};
        return elementOf(iterable->operand(1), path.drop_front());
      }
      if (callee.text == "zip") {
        if (path.empty())
          return {Value::unknown()};
        if (size_t(path[0]) + 1 < iterable->operands.size())
          return elementOf(iterable->operands[path[0] + 1], path.drop_front());
        return {Value::unknown()};
      }
      if (callee.text == "range")
        return {make(ValueKind::Number)};
      if (isOneOf(callee.text, {"reversed", "sorted", "list", "tuple", "iter"}) &&
          iterable->operands.size() >= 2)
        return elementOf(iterable->operand(1), path);
    }
    // `for name, fn in METRICS.items()`: the keys or values of a dict display.
    const Op *method = iterable->operand(0);
    if (method && method->is(OpKind::Attribute) && iterable->operands.size() == 1 &&
        isOneOf(method->text, {"items", "keys", "values"})) {
      ValueSet out;
      for (const Value &d : valuesOf(method->operand(0))) {
        bool items = method->text == "items";
        size_t part = items ? (path.empty() ? 2 : path[0]) : method->text == "values";
        std::optional<ValueSet> entries;
        if (d.kind == ValueKind::Container && d.op && d.op->is(OpKind::Dict) && part < 2 &&
            path.size() == size_t(items))
          entries = dictEntries(d.op, part);
        addAll(out, entries ? *entries : ValueSet{Value::unknown()});
      }
      return out.empty() ? ValueSet{Value::unknown()} : out;
    }
  }
  if (iterable->is(OpKind::List) || iterable->is(OpKind::Tuple) || iterable->is(OpKind::Set)) {
    ValueSet out;
    for (Op *e : iterable->operands) {
      if (!path.empty() && e && (e->is(OpKind::Tuple) || e->is(OpKind::List)) &&
          path[0] < e->operands.size())
        addAll(out, valuesOf(e->operands[path[0]]));
      else if (path.empty())
        addAll(out, valuesOf(e));
      else
        addValue(out, Value::unknown());
    }
    return out.empty() ? ValueSet{Value::unknown()} : out;
  }
  ValueSet out;
  for (const Value &v : valuesOf(iterable)) {
    if (v.kind == ValueKind::Container && v.op && v.op != iterable &&
        (v.op->is(OpKind::List) || v.op->is(OpKind::Tuple) || v.op->is(OpKind::Set)) &&
        unchanging(v.op)) {
      addAll(out, elementOf(v.op, path)); // a name bound to a display
      continue;
    }
    if (v.kind == ValueKind::Envoy && path.empty()) {
      std::string p = v.text.empty() ? "*" : std::string(v.text) + ".*";
      addValue(out, make(ValueKind::Envoy, save(p)));
    } else if (v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation) {
      addValue(out, make(ValueKind::Tensor));
    } else {
      addValue(out, Value::unknown());
    }
  }
  return out;
}

} // namespace ivc
