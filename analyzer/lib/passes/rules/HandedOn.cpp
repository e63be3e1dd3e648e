//===- HandedOn.cpp - Costly functions handed to other code (IVC312) ------===//
//
// The cost rules judge a call by its arguments: `torch.ones(2**30)`,
// `pow(3, 10**8)`, `'a'.zfill(2**34)`. Handed to `map`, `functools.partial`,
// `reduce`, a sort key or the like, such a function is called with values
// ivc does not see together (`map(torch.ones, [2**30])` allocates 4 GiB), and
// so is a method `operator.methodcaller` names. Those are reported where the
// function is handed on. A `defaultdict`'s factory is called with nothing.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include <cmath>

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// Methods whose cost follows their arguments: padding and replacing
/// strings, and tensors' sizes and repetitions.
bool sizeTakingMethod(std::string_view m) {
  return isOneOf(m, {"ljust", "rjust", "center", "zfill", "expandtabs", "replace", "new_zeros",
                     "new_ones", "new_empty", "new_full", "repeat", "tile", "expand",
                     "broadcast_to", "repeat_interleave"});
}

/// Functions whose cost follows their arguments' values.
bool sizeTaking(const Value &v) {
  switch (v.kind) {
  case ValueKind::Builtin:
    return isOneOf(v.text, {"pow", "bytes", "bytearray", "set", "frozenset", "dict"});
  case ValueKind::Method:
    return sizeTakingMethod(v.text);
  case ValueKind::Qualified: {
    std::string_view q = v.text;
    if (q.starts_with("numpy.random."))
      return true; // every sampler takes a size
    if (q.starts_with("torch.Tensor."))
      return sizeTakingMethod(q.substr(std::string_view("torch.Tensor.").size()));
    return isCombinatoric(v) || takesSizeArgument(q) ||
           isOneOf(q, {"operator.pow", "operator.ipow", "operator.mul", "operator.imul",
                       "operator.lshift", "operator.ilshift", "math.prod", "math.lcm",
                       "math.factorial", "math.comb", "math.perm", "collections.Counter",
                       "collections.OrderedDict",
                       // torch's and numpy's factories, repetitions and integer powers
                       "torch.zeros", "torch.ones", "torch.empty", "torch.full", "torch.rand",
                       "torch.randn", "torch.randint", "torch.randperm", "torch.normal",
                       "torch.multinomial", "torch.eye", "torch.arange", "torch.range",
                       "torch.linspace", "torch.logspace", "torch.tril_indices",
                       "torch.triu_indices", "torch.hann_window", "torch.hamming_window",
                       "torch.bartlett_window", "torch.blackman_window", "torch.kaiser_window",
                       "torch.repeat_interleave", "torch.tile", "torch.broadcast_to",
                       "numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full", "numpy.arange",
                       "numpy.linspace", "numpy.logspace", "numpy.eye", "numpy.identity",
                       "numpy.tri", "numpy.repeat", "numpy.tile", "numpy.power",
                       "numpy.left_shift"});
  }
  default:
    return false;
  }
}


/// `functools.reduce(operator.mul, h.shape, 1)`, the product of a tensor's
/// dimensions: a fold by multiplication over a shape, from a small int or
/// none, multiplies at most 64 ints that exist. (Another function, or a
/// string to start from, is judged as any.)
bool foldsAShape(RuleContext &ctx, const Op &call, const Value &callee) {
  if (callee.kind != ValueKind::Qualified ||
      !isOneOf(callee.text, {"functools.reduce", "itertools.accumulate"}))
    return false;
  const Op *fn = argument(call, 0, "function");
  const ValueSet &fns = fn ? ctx.valuesOf(fn) : ValueSet{};
  if (fns.size() != 1 || fns[0].kind != ValueKind::Qualified || fns[0].text != "operator.mul")
    return false;
  if (const Op *start = argument(call, 2, "initial")) {
    std::optional<double> n = numberValue(ctx, start);
    if (!n || std::fabs(*n) > double(1 << 20))
      return false;
  }
  const Op *items = argument(call, 1, "iterable");
  if (items && items->is(OpKind::Call) && items->operands.size() == 1) // `t.size()`
    items = items->operand(0);
  return items && items->is(OpKind::Attribute) && isOneOf(items->text, {"shape", "size"}) &&
         items->operand(0) && anyTensor(ctx, items->operand(0));
}

} // namespace

std::optional<std::string> costHandedOn(RuleContext &ctx, const Op &call, const Value &callee) {
  if (foldsAShape(ctx, call, callee))
    return std::nullopt;
  // `operator.methodcaller('zfill', 2**34)` calls the method it names.
  if (callee.kind == ValueKind::Qualified && callee.text == "operator.methodcaller")
    if (std::optional<std::string_view> m = knownString(ctx, argument(call, 0, "name"));
        !m || sizeTakingMethod(*m))
      return "names a method whose cost follows arguments ivc does not size";
  bool factoryTaker = callee.kind == ValueKind::Qualified && callee.text == "collections.defaultdict";
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (a && (a->is(OpKind::Keyword) || a->is(OpKind::Starred)))
      a = a->operand(0);
    if (factoryTaker && a == argument(call, 0, "default_factory"))
      continue;
    for (const Value &v : a ? ctx.valuesOf(a) : ValueSet{})
      if (sizeTaking(v))
        return "hands '" + std::string(v.kind == ValueKind::Method ? shortSource(ctx, *a) : v.text) +
               "' to a callee that applies it to values ivc does not size";
  }
  return std::nullopt;
}

} // namespace ivc::rules::cost
