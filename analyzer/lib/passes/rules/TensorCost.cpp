//===- TensorCost.cpp - Tensors of constant sizes (IVC312) ----------------===//
//
// In the server's process nothing limits what a FAST mediator allocates: a
// torch factory of a constant shape (`torch.ones(10**5, 10**5)`), or a tensor
// method given constant sizes (`h.new_zeros(2**30)`, `h.expand(2**18, 8,
// 768)`, `t.repeat(16)` of a tensor a factory made), and an operation whose
// result grows from operands such factories made (`torch.outer(a, a)`,
// `kron`, `cartesian_prod`, `combinations`, `cat([t] * n)`), beyond 1 GiB
// is ISOLATE. Operands of other sizes (activations) and broadcasting are
// not judged: ivc knows element counts, not shapes.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// The dimensions a shape argument lists: a tuple or list display, or
/// `torch.Size` of one.
std::optional<std::vector<const Op *>> shapeOf(RuleContext &ctx, const Op *shape) {
  if (shape && shape->is(OpKind::Call) && shape->operands.size() == 2) {
    const ValueSet &callee = ctx.valuesOf(shape->operand(0));
    if (callee.size() == 1 && callee[0].kind == ValueKind::Qualified &&
        callee[0].text == "torch.Size")
      shape = shape->operand(1);
  }
  if (!shape || !(shape->is(OpKind::Tuple) || shape->is(OpKind::List)))
    return std::nullopt;
  std::vector<const Op *> dims;
  for (size_t i = 0; i < shape->operands.size(); ++i)
    dims.push_back(shape->operand(i));
  return dims;
}

/// A call's positional arguments with `*[a, b]` spread among them (`*xs`
/// of anything else stays, and sizes as nothing).
std::vector<const Op *> spread(const Op &call) {
  std::vector<const Op *> dims;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (!a || a->is(OpKind::Keyword) || a->is(OpKind::KwSplat))
      continue;
    const Op *inner = a->is(OpKind::Starred) ? a->operand(0) : nullptr;
    if (inner && (inner->is(OpKind::Tuple) || inner->is(OpKind::List)))
      dims.insert(dims.end(), inner->operands.begin(), inner->operands.end());
    else
      dims.push_back(a);
  }
  return dims;
}

/// The elements of a shape given as one display or as sizes one by one
/// (`zeros((a, b))`, `zeros(a, b)`, `new_zeros(*[a, b])`).
std::optional<double> shapeElements(RuleContext &ctx, const std::vector<const Op *> &dims) {
  if (dims.size() == 1)
    if (std::optional<std::vector<const Op *>> d = shapeOf(ctx, dims[0]))
      return product(ctx, *d);
  return dims.empty() ? std::nullopt : product(ctx, dims);
}

/// How many float32 elements' worth of memory one element of the dtype a
/// call asks for takes (`dtype=torch.float64`: 2).
double dtypeWidth(RuleContext &ctx, const Op &call) {
  const Op *dtype = keywordArgument(call, "dtype");
  double width = 1;
  for (const Value &v : dtype ? ctx.valuesOf(dtype) : ValueSet{})
    if (v.kind == ValueKind::Qualified) {
      if (isOneOf(v.text, {"torch.float64", "torch.double", "torch.int64", "torch.long",
                           "torch.complex64", "torch.cfloat"}))
        width = std::max(width, 2.0);
      if (isOneOf(v.text, {"torch.complex128", "torch.cdouble"}))
        width = std::max(width, 4.0);
    }
  return width;
}

/// How many elements the torch factory `f` (`torch.` stripped) makes in
/// `call`, when its shape is made of constants ivc evaluates.
std::optional<double> factoryElements(RuleContext &ctx, const Op &call, std::string_view f) {
  std::vector<const Op *> pos = positionalArguments(call);
  auto dims = [&](const Op *shape) -> std::optional<double> {
    std::optional<std::vector<const Op *>> d = shapeOf(ctx, shape);
    return d ? product(ctx, *d) : std::nullopt;
  };
  if (isOneOf(f, {"zeros", "ones", "empty", "rand", "randn"})) {
    if (const Op *size = keywordArgument(call, "size"))
      return dims(size);
    return shapeElements(ctx, spread(call));
  }
  if (isOneOf(f, {"hann_window", "hamming_window", "bartlett_window", "blackman_window",
                  "kaiser_window"}))
    return product(ctx, {argument(call, 0, "window_length")});
  if (isOneOf(f, {"tril_indices", "triu_indices"})) // 2 x up to row * col
    if (std::optional<double> n = product(ctx, {argument(call, 0, "row"), argument(call, 1, "col")}))
      return 2 * *n;
  if (f == "full")
    return dims(argument(call, 0, "size"));
  if (f == "randint") { // (high, size) or (low, high, size)
    const Op *size = keywordArgument(call, "size");
    return dims(size ? size : pos.empty() ? nullptr : pos.back());
  }
  if (f == "randperm")
    return product(ctx, {argument(call, 0, "n")});
  if (f == "eye") {
    const Op *n = argument(call, 0, "n"), *m = argument(call, 1, "m");
    return product(ctx, {n, m ? m : n});
  }
  if (isOneOf(f, {"linspace", "logspace"}))
    return product(ctx, {argument(call, 2, "steps")});
  if (f == "arange" && !keywordArgument(call, "start") && !keywordArgument(call, "end") &&
      !keywordArgument(call, "step"))
    return rangeLength(ctx, pos);
  return std::nullopt;
}

/// "1073741824 elements", "268435456 elements of 8 bytes".
std::string elementsText(double n, double width) {
  std::string text = (n < 1e18 ? std::to_string(int64_t(n)) : "over 10^18") + " elements";
  return width > 1 ? text + " of " + std::to_string(int(4 * width)) + " bytes" : text;
}

std::optional<double> grownElements(RuleContext &ctx, const Op &call, std::string_view f,
                                    const Op *self, int depth);

/// The elements of the tensor `op` makes when it is a torch factory call of
/// a constant shape, or grows from such tensors, directly or through names
/// bound once.
std::optional<double> tensorElements(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return std::nullopt;
  if (op->is(OpKind::Name))
    return tensorElements(ctx, onlyAssignedValue(ctx, op), depth + 1);
  if (!op->is(OpKind::Call))
    return std::nullopt;
  for (const Value &v : ctx.valuesOf(op->operand(0))) {
    if (v.kind == ValueKind::Qualified && v.text.starts_with("torch.")) {
      std::string_view f = std::string_view(v.text).substr(6);
      if (std::optional<double> n = factoryElements(ctx, *op, f))
        return n;
      if (std::optional<double> n = grownElements(ctx, *op, f, nullptr, depth + 1))
        return n;
    }
    const Op *attr = op->operand(0);
    if (v.kind == ValueKind::Method && attr && attr->is(OpKind::Attribute))
      if (std::optional<double> n = grownElements(ctx, *op, v.text, attr->operand(0), depth + 1))
        return n;
  }
  return std::nullopt;
}

/// The elements of the tensors a sequence argument lists (`[a, b]`,
/// `(t,) * n`), when every one is sized.
std::optional<double> listedElements(RuleContext &ctx, const Op *seq, int depth) {
  if (!seq || depth > 8)
    return std::nullopt;
  if (seq->is(OpKind::Name))
    return listedElements(ctx, onlyAssignedValue(ctx, seq), depth + 1);
  if (seq->is(OpKind::List) || seq->is(OpKind::Tuple)) {
    double n = 0;
    for (size_t i = 0; i < seq->operands.size(); ++i) {
      std::optional<double> item = tensorElements(ctx, seq->operand(i), depth + 1);
      if (!item)
        return std::nullopt;
      n += *item;
    }
    return n;
  }
  if (seq->is(OpKind::BinaryOp) && seq->text == "*") {
    for (int side = 0; side < 2; ++side) {
      std::optional<double> times = product(ctx, {seq->operand(1 - side)});
      if (times)
        if (std::optional<double> n = listedElements(ctx, seq->operand(side), depth + 1))
          return *n * std::max(0.0, *times);
    }
  }
  return std::nullopt;
}

/// Elements of `(n choose r) * r`, the result of `combinations`.
double combinationElements(double n, double r) {
  if (r < 0 || r > n)
    return 0;
  double logChoose = std::lgamma(n + 1) - std::lgamma(r + 1) - std::lgamma(n - r + 1);
  return std::exp(logChoose) * std::max(r, 1.0);
}

/// The elements of what `f` (a torch function, or a method of `self`)
/// makes from operands of sizes ivc knows.
std::optional<double> grownElements(RuleContext &ctx, const Op &call, std::string_view f,
                                    const Op *self, int depth) {
  // The operands: the receiver first for a method.
  std::vector<const Op *> operands = positionalArguments(call);
  if (self)
    operands.insert(operands.begin(), self);
  auto sized = [&](size_t i) {
    return i < operands.size() ? tensorElements(ctx, operands[i], depth) : std::nullopt;
  };
  if (isOneOf(f, {"outer", "ger", "kron"})) {
    std::optional<double> a = sized(0), b = sized(1);
    return a && b ? std::optional<double>(*a * *b) : std::nullopt;
  }
  if (f == "cartesian_prod" && !self) {
    double n = 1;
    for (size_t i = 0; i < operands.size(); ++i) {
      std::optional<double> k = sized(i);
      if (!k)
        return std::nullopt;
      n *= *k;
    }
    return n * double(operands.size());
  }
  if (f == "combinations") {
    std::optional<double> n = sized(0);
    const Op *r = self ? argument(call, 0, "r") : argument(call, 1, "r");
    std::optional<double> k = r ? product(ctx, {r}) : std::optional<double>(2);
    return n && k ? std::optional<double>(combinationElements(*n, *k)) : std::nullopt;
  }
  if (!self && isOneOf(f, {"cat", "concat", "concatenate", "stack", "hstack", "vstack",
                           "dstack", "column_stack", "row_stack"}))
    return listedElements(ctx, argument(call, 0, "tensors"), depth);
  return std::nullopt;
}

/// Why a tensor method with constant sizes (`h.new_zeros(2**30)`,
/// `h.expand(2**18, 8, 768)`, `t.repeat(16)` of a 2^27-element `t`) may
/// allocate beyond the limit, if it may. The receiver's size is known only
/// when a factory of a constant shape made it.
std::optional<std::string> tensorMethodCost(RuleContext &ctx, const Op &call, std::string_view m) {
  const Op *attr = call.operand(0);
  std::optional<double> receiver =
      attr && attr->is(OpKind::Attribute) ? tensorElements(ctx, attr->operand(0)) : std::nullopt;
  std::optional<double> n;
  if (isOneOf(m, {"new_zeros", "new_ones", "new_empty"}))
    n = keywordArgument(call, "size") ? shapeElements(ctx, {keywordArgument(call, "size")})
                                       : shapeElements(ctx, spread(call));
  else if (m == "new_full")
    n = shapeElements(ctx, {argument(call, 0, "size")});
  else if (isOneOf(m, {"expand", "broadcast_to"})) {
    // -1 keeps the receiver's size there: counted as 1.
    std::vector<const Op *> dims;
    for (const Op *d : spread(call))
      if (!(d && d->is(OpKind::UnaryOp) && d->text == "-"))
        dims.push_back(d);
    n = shapeElements(ctx, dims);
  } else if (isOneOf(m, {"repeat", "tile", "repeat_interleave"})) {
    std::optional<double> times = shapeElements(ctx, m == "repeat_interleave"
                                                         ? std::vector<const Op *>{argument(call, 0, "repeats")}
                                                         : spread(call));
    if (!times)
      return std::nullopt;
    if (!receiver)
      return *times > double(MaxBlindRepetitions)
                 ? std::optional<std::string>("repeats a tensor " +
                                              std::to_string(int64_t(*times)) + " times")
                 : std::nullopt;
    n = *times * *receiver;
  } else if (attr && attr->is(OpKind::Attribute)) {
    n = grownElements(ctx, call, m, attr->operand(0), 0);
    if (n && *n > MaxTensorElements)
      return "makes a tensor of " + elementsText(*n, 1) + " from its operands";
  }
  double width = dtypeWidth(ctx, call);
  if (n && *n * width > MaxTensorElements)
    return "makes a tensor of " + elementsText(*n, width);
  return std::nullopt;
}

} // namespace

std::optional<std::string> tensorCallCost(RuleContext &ctx, const Op &call, const Value &callee) {
  if (callee.kind == ValueKind::Qualified && callee.text.starts_with("torch.")) {
    std::string_view f = std::string_view(callee.text).substr(6);
    std::optional<double> n = factoryElements(ctx, call, f);
    double width = dtypeWidth(ctx, call);
    if (n && *n * width > MaxTensorElements)
      return "allocates a tensor of " + elementsText(*n, width);
    n = grownElements(ctx, call, f, nullptr, 0);
    if (n && *n > MaxTensorElements)
      return "makes a tensor of " + elementsText(*n, 1) + " from its operands";
  }
  if (callee.kind == ValueKind::Method &&
      (callee.receiver == ValueKind::Tensor || callee.receiver == ValueKind::Activation))
    return tensorMethodCost(ctx, call, callee.text);
  return std::nullopt;
}

} // namespace ivc::rules::cost
