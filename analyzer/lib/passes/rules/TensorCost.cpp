//===- TensorCost.cpp - Tensors of constant sizes (IVC312) ----------------===//
//
// In the server's process nothing limits what a FAST mediator allocates: a
// torch or numpy factory of a constant shape (`torch.ones(10**5, 10**5)`), a
// tensor method given constant sizes (`h.new_zeros(2**30)`, `h.expand(2**18,
// 8, 768)`, `t.repeat(16)` of a tensor a factory made), and an operation
// whose result grows from operands such factories made (`torch.outer(a, a)`,
// `kron`, `cartesian_prod`, `combinations`, `cat([t] * n)`), beyond 1 GiB
// is ISOLATE, and so are polynomial degrees and matrix powers ivc cannot
// bound, and sizes the inputs choose (InputNumbers.cpp). Shapes carry
// through views (`t[:, None]`, `unsqueeze`, `.T`, `reshape`), elementwise
// results and names to products, gathers and broadcasts; operands of other
// sizes (activations, weights) are not judged.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include "llvm/ADT/StringSet.h"

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
  if (shape && shape->is(OpKind::BinaryOp) && shape->text == "*") { // `[2**20] * 2`
    for (int side = 0; side < 2; ++side) {
      std::optional<std::vector<const Op *>> once = shapeOf(ctx, shape->operand(side));
      Magnitude times = Sizer(ctx).of(shape->operand(1 - side));
      if (once && times.value && *times.value >= 0 && *times.value <= 64) {
        std::vector<const Op *> dims;
        for (int64_t i = 0; i < *times.value; ++i)
          dims.insert(dims.end(), once->begin(), once->end());
        return dims;
      }
    }
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

/// The elements of a tensor of `shape`.
double elementsOf(const std::vector<double> &shape) {
  double n = 1;
  for (double d : shape)
    n *= d;
  return n;
}

/// The shape tensors of `shapes` broadcast to: aligned at their last
/// dimensions, the larger of each.
std::vector<double> broadcastOf(const std::vector<std::vector<double>> &shapes) {
  std::vector<double> out;
  for (const std::vector<double> &shape : shapes) {
    if (shape.size() > out.size())
      out.insert(out.begin(), shape.size() - out.size(), 1.0);
    for (size_t i = 0; i < shape.size(); ++i) {
      double &d = out[out.size() - shape.size() + i];
      d = std::max(d, shape[i]);
    }
  }
  return out;
}

/// Whether tensors of `shapes` broadcast together: aligned at their last
/// dimensions, each pair equal or one of them 1.
bool broadcastTogether(const std::vector<std::vector<double>> &shapes) {
  std::vector<double> out = broadcastOf(shapes);
  return llvm::all_of(shapes, [&](const std::vector<double> &shape) {
    for (size_t i = 0; i < shape.size(); ++i)
      if (double d = shape[i], o = out[out.size() - shape.size() + i]; d != o && d != 1)
        return false;
    return true;
  });
}

/// The elements tensors of known shapes among `operands` broadcast to, when
/// at least two do and none is past the limit by itself (judged where it was
/// made); the others are taken as they may be. `together`: only shapes that
/// broadcast together (a function's operands may be contracted instead).
std::optional<double> broadcastElements(RuleContext &ctx, llvm::ArrayRef<const Op *> operands,
                                        bool together) {
  std::vector<std::vector<double>> shapes;
  for (const Op *o : operands)
    if (std::optional<std::vector<double>> shape = factoryShape(ctx, o)) {
      if (elementsOf(*shape) > MaxTensorElements)
        return std::nullopt;
      shapes.push_back(std::move(*shape));
    }
  if (shapes.size() < 2 || (together && !broadcastTogether(shapes)))
    return std::nullopt;
  return elementsOf(broadcastOf(shapes));
}

/// Torch's and numpy's elementwise functions (and tensor methods) of
/// several tensors, which broadcast them against each other.
bool broadcastsItsOperands(std::string_view f) {
  static const llvm::StringSet<> names = {
      "add", "sub", "subtract", "rsub", "mul", "multiply", "div", "divide", "true_divide",
      "floor_divide", "fmod", "remainder", "mod", "pow", "power", "float_power", "maximum",
      "minimum", "fmax", "fmin", "atan2", "arctan2", "hypot", "copysign", "xlogy",
      "special.xlogy", "special.xlog1py", "heaviside", "logaddexp", "logaddexp2", "ldexp",
      "nextafter", "gcd", "lcm", "igamma", "igammac", "complex", "polar", "eq", "ne", "lt",
      "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal", "isclose",
      "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
      "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "lerp", "where", "addcmul",
      "addcdiv", "clamp", "clip", "masked_fill", "broadcast_tensors", "broadcast_arrays"};
  return names.contains(f);
}

/// Elementwise functions and methods of one tensor, whose result has its
/// shape.
bool keepsItsShape(std::string_view f) {
  static const llvm::StringSet<> names = {
      "abs", "neg", "negative", "positive", "exp", "exp2", "expm1", "log", "log2", "log10",
      "log1p", "sqrt", "rsqrt", "square", "sin", "cos", "tan", "asin", "acos", "atan", "sinh",
      "cosh", "tanh", "asinh", "acosh", "atanh", "arcsin", "arccos", "arctan", "arcsinh",
      "arccosh", "arctanh", "sigmoid", "relu", "sign", "sgn", "signbit", "floor", "ceil",
      "round", "trunc", "frac", "reciprocal", "erf", "erfc", "erfinv", "lgamma", "digamma",
      "i0", "deg2rad", "rad2deg", "nan_to_num", "isnan", "isinf", "isfinite", "logical_not",
      "bitwise_not", "conj", "clamp_min", "clamp_max", "clone", "contiguous", "detach", "cpu",
      "to", "float", "double", "half", "bfloat16", "long", "int", "short", "bool",
      "requires_grad_", "nn.functional.relu", "nn.functional.gelu", "nn.functional.silu",
      "nn.functional.softplus", "nn.functional.elu", "nn.functional.selu",
      "nn.functional.leaky_relu", "nn.functional.hardtanh", "nn.functional.relu6",
      "nn.functional.logsigmoid", "nn.functional.mish", "nn.functional.sigmoid",
      "nn.functional.tanh", "special.expit", "special.erf", "special.exp2", "special.expm1"};
  return names.contains(f);
}

/// What a call is given: its receiver first for a method, then what each
/// argument passes.
std::vector<const Op *> callOperands(const Op &call, const Op *self) {
  std::vector<const Op *> operands = argumentValues(call);
  if (self)
    operands.insert(operands.begin(), self);
  return operands;
}

/// The operands an elementwise call broadcasts (callOperands; what is no
/// tensor, a number or a dtype, is skipped where they are read); empty for
/// any other call. `f` is the bare name: a method's, or a library
/// function's without its library.
std::vector<const Op *> elementwiseOperands(const Op &call, std::string_view f, const Op *self) {
  if (!broadcastsItsOperands(f) && !keepsItsShape(f))
    return {};
  return callOperands(call, self);
}

/// The elements of one of `shape`'s slices along `dim` (the first when null
/// or unknown): what a gather takes of it per index.
double rowElements(RuleContext &ctx, const std::vector<double> &shape, const Op *dim) {
  double picked = shape.empty() ? 1 : shape.front();
  if (std::optional<double> k = dim ? numberValue(ctx, dim) : std::nullopt)
    if (double at = *k < 0 ? *k + double(shape.size()) : *k; at >= 0 && at < double(shape.size()))
      picked = shape[size_t(at)];
  return picked > 0 ? elementsOf(shape) / picked : elementsOf(shape);
}

/// The elements of a shape given as one display or as sizes one by one
/// (`zeros((a, b))`, `zeros(a, b)`, `new_zeros(*[a, b])`).
std::optional<double> shapeElements(RuleContext &ctx, const std::vector<const Op *> &dims) {
  if (dims.size() == 1)
    if (std::optional<std::vector<const Op *>> d = shapeOf(ctx, dims[0]))
      return product(ctx, *d);
  return dims.empty() ? std::nullopt : product(ctx, dims);
}

/// How many float32 elements' worth of memory one element of `dtype`
/// takes (`torch.float64`: 2).
double widthOf(RuleContext &ctx, const Op &dtype) {
  double width = 1;
  for (const Value &v : ctx.valuesOf(&dtype)) {
    std::string_view t = v.text;
    if (v.kind == ValueKind::Builtin) // numpy reads int and float as 64 bits
      width = std::max(width, t == "complex" ? 4.0 : 2.0);
    if (v.kind != ValueKind::Qualified)
      continue;
    t = t.substr(t.find('.') + 1);
    if (isOneOf(t, {"float64", "double", "int64", "long", "complex64", "cfloat", "uint64",
                    "longlong", "float_", "int_", "intp"}))
      width = std::max(width, 2.0);
    if (isOneOf(t, {"complex128", "cdouble", "complex_", "longdouble", "clongdouble"}))
      width = std::max(width, 4.0);
  }
  return width;
}

/// The width of the dtype a call asks for (`dtype=...`), or `fallback`.
double dtypeWidth(RuleContext &ctx, const Op &call, double fallback = 1) {
  const Op *dtype = keywordArgument(call, "dtype");
  return dtype ? widthOf(ctx, *dtype) : fallback;
}

/// The width of what a factory makes by default: torch's integer factories
/// make int64, numpy's float64 or int64.
double defaultWidth(std::string_view q) {
  if (q.starts_with("numpy."))
    return 2;
  return isOneOf(q, {"torch.randint", "torch.randperm", "torch.multinomial", "torch.tril_indices",
                     "torch.triu_indices", "torch.arange", "torch.range",
                     "torch.nn.functional.one_hot"})
             ? 2
             : 1;
}

/// The length of `arange(*args)` (`inclusive`: `torch.range`), floats too.
std::optional<double> stepsOf(RuleContext &ctx, const std::vector<const Op *> &args,
                              bool inclusive) {
  if (args.empty() || args.size() > 3)
    return std::nullopt;
  std::vector<double> v;
  for (const Op *a : args) {
    if (std::optional<double> x = numberValue(ctx, a)) {
      v.push_back(*x);
      continue;
    }
    // Not evaluated: no more steps than the ends' limits apart, by a step
    // of at least 1 (an integer's; a float step may be 2**-30).
    const Op *step = args.size() == 3 ? args[2] : nullptr;
    std::optional<double> by = step ? numberValue(ctx, step) : 1.0;
    if (!by && Sizer(ctx).of(step).isInt())
      by = 1.0;
    SizeLimit span;
    for (size_t i = 0; i < std::min<size_t>(args.size(), 2); ++i) {
      std::optional<SizeLimit> end = sizeLimit(ctx, args[i]);
      if (!end)
        return HUGE_VAL;
      span = plus(span, *end);
    }
    if (!by || std::fabs(*by) < 1 || judged(span) == HUGE_VAL)
      return HUGE_VAL;
    if (span.lengths)
      return span.most > MaxTensorElements ? std::optional<double>(span.most) : std::nullopt;
    return span.most / std::fabs(*by) + (inclusive ? 1 : 0);
  }
  double start = v.size() > 1 ? v[0] : 0, end = v.size() > 1 ? v[1] : v[0];
  double step = v.size() == 3 ? std::fabs(v[2]) : 1;
  if (step == 0 || !std::isfinite(end - start))
    return std::nullopt;
  return std::floor(std::fabs(end - start) / step) + (inclusive ? 1 : 0);
}

/// How many elements the torch or numpy factory `q` makes in `call`, when
/// its shape is made of constants ivc evaluates.
std::optional<double> factoryElements(RuleContext &ctx, const Op &call, std::string_view q) {
  std::vector<const Op *> pos = positionalArguments(call);
  auto dims = [&](const Op *shape) -> std::optional<double> {
    std::optional<std::vector<const Op *>> d = shapeOf(ctx, shape);
    return d ? product(ctx, *d) : shape ? product(ctx, {shape}) : std::nullopt;
  };
  if (q.starts_with("numpy.")) {
    std::string_view f = q.substr(6);
    if (isOneOf(f, {"zeros", "ones", "empty", "full"}))
      return dims(argument(call, 0, "shape"));
    if (isOneOf(f, {"random.rand", "random.randn"}))
      return shapeElements(ctx, spread(call));
    // Samplers take their size by keyword or at its position; one not
    // listed is judged by its last positional argument, where most take it.
    static constexpr std::pair<std::string_view, size_t> SizeAt[] = {
        {"random.random", 0}, {"random.random_sample", 0}, {"random.standard_normal", 0},
        {"random.uniform", 2}, {"random.normal", 2}, {"random.randint", 2},
        {"random.choice", 1}, {"random.binomial", 2}, {"random.poisson", 1},
        {"random.exponential", 1}};
    for (auto [name, at] : SizeAt)
      if (f == name)
        if (const Op *size = argument(call, at, "size"))
          return dims(size);
    if (f.starts_with("random.") && f.find('.', 7) == std::string_view::npos) {
      const Op *size = keywordArgument(call, "size");
      if (!size && pos.size() >= 2)
        size = pos.back();
      if (size)
        return dims(size);
    }
    if (f == "random.permutation")
      return product(ctx, {argument(call, 0, "x")});
    if (f == "arange")
      return stepsOf(ctx, pos, false);
    if (isOneOf(f, {"linspace", "logspace"}))
      return product(ctx, {argument(call, 2, "num")});
    if (f == "eye") {
      const Op *n = argument(call, 0, "N"), *m = argument(call, 1, "M");
      return product(ctx, {n, m ? m : n});
    }
    if (f == "identity")
      return product(ctx, {argument(call, 0, "n"), argument(call, 0, "n")});
    return std::nullopt;
  }
  if (!q.starts_with("torch."))
    return std::nullopt;
  std::string_view f = q.substr(6);
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
  if (f == "normal") // (mean, std, size)
    if (const Op *size = argument(call, 2, "size"))
      return dims(size);
  if (f == "randperm")
    return product(ctx, {argument(call, 0, "n")});
  if (f == "multinomial") // at least num_samples per row
    return product(ctx, {argument(call, 1, "num_samples")});
  if (f == "eye") {
    const Op *n = argument(call, 0, "n"), *m = argument(call, 1, "m");
    return product(ctx, {n, m ? m : n});
  }
  if (isOneOf(f, {"linspace", "logspace"}))
    return product(ctx, {argument(call, 2, "steps")});
  if (isOneOf(f, {"arange", "range"}) && !keywordArgument(call, "start") &&
      !keywordArgument(call, "end") && !keywordArgument(call, "step"))
    return stepsOf(ctx, pos, f == "range");
  return std::nullopt;
}

/// "1073741824 elements", "268435456 elements of 8 bytes".
std::string elementsText(double n, double width) {
  if (!std::isfinite(n))
    return "a size ivc cannot bound";
  std::string text = countText(n) + " elements";
  return width > 1 ? text + " of " + std::to_string(int(4 * width)) + " bytes" : text;
}

std::optional<double> grownElements(RuleContext &ctx, const Op &call, std::string_view f,
                                    const Op *self, int depth);

/// `outer` of `torch.outer` or `numpy.outer`, `nn.functional.pad` of
/// `torch.nn.functional.pad`; empty for other libraries.
std::string_view libraryFunction(std::string_view q) {
  for (std::string_view lib : {"torch.", "numpy."})
    if (q.starts_with(lib))
      return q.substr(lib.size());
  return {};
}

/// The elements of the tensor `op` makes when it is a torch factory call of
/// a constant shape, or grows from such tensors, directly or through names
/// bound once.
std::optional<double> tensorElements(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return std::nullopt;
  // A caller's tensor: as many as the plan's guard allows, else the codec.
  if (std::optional<double> most = ctx.values.callerTensorBound(op))
    return *most;
  if (callersShape(ctx, op))
    return CallersTensorElements;
  if (op->is(OpKind::Name))
    return tensorElements(ctx, onlyAssignedValue(ctx, op), depth + 1);
  // A factory of a constant shape, or a view of one (`a[:2**15]`, `t.T`).
  if (std::optional<std::vector<double>> shape = factoryShape(ctx, op))
    return elementsOf(*shape);
  if (!op->is(OpKind::Call))
    return std::nullopt;
  for (const Value &v : ctx.valuesOf(op->operand(0))) {
    if (v.kind == ValueKind::Qualified) {
      if (std::optional<double> n = factoryElements(ctx, *op, v.text))
        return n;
      if (std::optional<double> n = grownElements(ctx, *op, libraryFunction(v.text), nullptr,
                                                  depth + 1))
        return n;
    }
    const Op *attr = op->operand(0);
    if (v.kind != ValueKind::Method || !attr || !attr->is(OpKind::Attribute))
      continue;
    // Views and copies have their receiver's elements; repetitions, those
    // times their counts.
    if (isOneOf(v.text, {"unsqueeze", "squeeze", "view", "reshape", "flatten", "contiguous",
                         "clone", "float", "double", "half", "to", "t", "detach", "copy"}))
      return tensorElements(ctx, attr->operand(0), depth + 1);
    if (isOneOf(v.text, {"repeat", "tile"})) {
      std::optional<double> each = tensorElements(ctx, attr->operand(0), depth + 1);
      std::optional<double> times = shapeElements(ctx, spread(*op));
      return each && times ? std::optional<double>(*each * *times) : std::nullopt;
    }
    if (std::optional<double> n = grownElements(ctx, *op, v.text, attr->operand(0), depth + 1))
      return n;
  }
  return std::nullopt;
}

/// How many times `op` repeats a tensor ivc cannot size, through a chain
/// of `repeat` and `tile` (names bound once included): 1 for anything else.
double blindRepeats(RuleContext &ctx, const Op *op, int depth = 0) {
  op = valueBehindNames(ctx, op);
  if (!op || depth > 8 || !op->is(OpKind::Call) || !op->operand(0) ||
      !op->operand(0)->is(OpKind::Attribute) || !isOneOf(op->operand(0)->text, {"repeat", "tile"}))
    return 1;
  std::optional<double> times = shapeElements(ctx, spread(*op));
  return (times ? std::max(*times, 1.0) : HUGE_VAL) *
         blindRepeats(ctx, op->operand(0)->operand(0), depth + 1);
}

} // namespace

namespace {

std::optional<std::vector<double>> shapeWithin(RuleContext &ctx, const Op *op, int &budget);

/// The shape of `base[index]` where base has `shape`, for indices of `:`,
/// `None`, `...` and integers (a view: `a[:, :, None]`, `t[0]`).
std::optional<std::vector<double>> indexedShape(RuleContext &ctx, std::vector<double> shape,
                                                const Op *index) {
  std::vector<const Op *> items{index};
  if (index && index->is(OpKind::Tuple))
    items.assign(index->operands.begin(), index->operands.end());
  std::vector<double> out;
  size_t at = 0;
  size_t taking = llvm::count_if(items, [](const Op *i) {
    return i && !i->is(OpKind::None) && !i->is(OpKind::Ellipsis);
  });
  for (const Op *item : items) {
    if (!item)
      return std::nullopt;
    if (item->is(OpKind::None)) {
      out.push_back(1);
    } else if (item->is(OpKind::Ellipsis)) {
      for (size_t rest = shape.size() - std::min(shape.size(), at + taking); rest > 0; --rest)
        out.push_back(shape[at++]);
    } else if (at >= shape.size()) {
      return std::nullopt;
    } else if (item->is(OpKind::Slice)) {
      // At most the dimension, and what constant bounds take (`a[:2**15]`).
      std::optional<double> taken = ExtentOf(ctx).sliceLength(*item);
      out.push_back(std::min(shape[at++], taken.value_or(HUGE_VAL)));
      --taking;
    } else if (numberValue(ctx, item)) {
      ++at; // an integer drops its dimension
      --taking;
    } else {
      return std::nullopt;
    }
  }
  out.insert(out.end(), shape.begin() + std::min(at, shape.size()), shape.end());
  return out;
}

/// The shape `t.reshape(...)` or `t.view(...)` gives a tensor of `shape`:
/// constant sizes, one of them -1 at most (what the others leave).
std::optional<std::vector<double>> reshaped(RuleContext &ctx, const std::vector<double> &shape,
                                            const Op &call) {
  std::vector<const Op *> dims = spread(call);
  if (dims.size() == 1)
    if (std::optional<std::vector<const Op *>> d = shapeOf(ctx, dims[0]))
      dims = *d;
  std::vector<double> out;
  std::optional<size_t> inferred;
  double known = 1;
  for (const Op *d : dims) {
    std::optional<double> n = numberValue(ctx, d);
    if (!n || (*n < 0 && (*n != -1 || inferred)))
      return std::nullopt;
    if (*n == -1)
      inferred = out.size();
    else
      known *= *n;
    out.push_back(*n);
  }
  if (inferred)
    out[*inferred] = known > 0 ? elementsOf(shape) / known : 0;
  return out;
}

/// The shape of a view of a tensor of known shape: `t[:, None]`,
/// `t.unsqueeze(d)`, `t.T` and `t.t()` of a matrix, `t.reshape(-1, 1)`.
std::optional<std::vector<double>> viewShape(RuleContext &ctx, const Op *op, int &budget) {
  if (op->is(OpKind::Subscript))
    if (std::optional<std::vector<double>> base = shapeWithin(ctx, op->operand(0), budget))
      return indexedShape(ctx, *base, op->operand(1));
  const Op *attr = op->is(OpKind::Call) ? op->operand(0) : op;
  if (!attr || !attr->is(OpKind::Attribute) ||
      !(op->is(OpKind::Call) ? isOneOf(attr->text, {"unsqueeze", "t", "reshape", "view"})
                             : attr->text == "T"))
    return std::nullopt;
  std::optional<std::vector<double>> base = shapeWithin(ctx, attr->operand(0), budget);
  if (!base)
    return std::nullopt;
  if (isOneOf(attr->text, {"reshape", "view"}))
    return reshaped(ctx, *base, *op);
  if (attr->text != "unsqueeze") {
    std::reverse(base->begin(), base->end());
    return base;
  }
  std::optional<double> d = numberValue(ctx, argument(*op, 0, "dim"));
  double n = double(base->size()) + 1;
  if (d && *d < 0)
    *d += n;
  if (!d || *d < 0 || *d >= n)
    return std::nullopt;
  base->insert(base->begin() + size_t(*d), 1.0);
  return base;
}

std::optional<std::vector<double>> madeShape(RuleContext &ctx, const Op *op);
std::optional<std::vector<double>> elementwiseShape(RuleContext &ctx, const Op *op, int &budget);

/// The shape of a name bound only by iterating a display of tensors of one
/// shape (`for x in [a, b]`, `[x[:, None] * x for x in [a]]`), or a helper's
/// parameter every call passes a tensor of one shape (`outer(a[:, None], a)`).
std::optional<std::vector<double>> boundShape(RuleContext &ctx, const Op *op, int &budget) {
  const Symbol *s = op->is(OpKind::Name) ? symbolOf(ctx, op) : nullptr;
  if (!s || s->bindings.size() != 1 || !s->bindings[0].path.empty())
    return std::nullopt;
  const Binding &b = s->bindings[0];
  std::vector<const Op *> candidates;
  if (b.kind == Binding::Kind::Loop) {
    const Op *items = valueBehindNames(ctx, b.value);
    if (items && (items->is(OpKind::List) || items->is(OpKind::Tuple)))
      candidates.assign(items->operands.begin(), items->operands.end());
  } else if (b.kind == Binding::Kind::Param && b.site &&
             !ctx.values.argumentsOf(*b.site, candidates)) {
    return std::nullopt; // called out of sight
  }
  if (candidates.empty())
    return std::nullopt;
  std::optional<std::vector<double>> shape;
  for (const Op *item : candidates) {
    std::optional<std::vector<double>> each =
        item && !item->is(OpKind::Starred) ? shapeWithin(ctx, item, budget) : std::nullopt;
    if (!each || (shape && *shape != *each))
      return std::nullopt;
    shape = std::move(each);
  }
  return shape;
}

/// factoryShape, through views and elementwise operations of at most 32
/// ops not seen before (`t[0][0]...` may nest as deep as CPython parses, and
/// both operands of `a + b` may be sums of their own).
std::optional<std::vector<double>> shapeWithin(RuleContext &ctx, const Op *op, int &budget) {
  if (const Op *value = valueBehindNames(ctx, op))
    op = value;
  else if (!op || !op->is(OpKind::Name)) // (a name of no value: a loop's variable, say)
    return std::nullopt;
  // Shapes found are kept: the rules ask in source order, so a chain of
  // `b = b + 1` lines costs one step each, however long.
  if (auto known = ctx.memo.shapes.find(op); known != ctx.memo.shapes.end())
    return known->second;
  if (--budget < 0)
    return std::nullopt;
  std::optional<std::vector<double>> shape = viewShape(ctx, op, budget);
  if (!shape)
    shape = elementwiseShape(ctx, op, budget);
  if (!shape)
    shape = madeShape(ctx, op);
  if (!shape)
    shape = boundShape(ctx, op, budget);
  // (None found with budget left is none at all; one that ran out may be
  // found from nearer.)
  if (shape || budget >= 0)
    ctx.memo.shapes[op] = shape;
  return shape;
}

/// Whether `op` is no tensor: a Python number, which broadcasts as a
/// scalar, or what sets a result's type or place (`torch.float64`, "cpu").
bool isScalar(RuleContext &ctx, const Op *op) {
  if (numberValue(ctx, op))
    return true;
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    return v.kind == ValueKind::Number || v.kind == ValueKind::Bool ||
           v.kind == ValueKind::Str || v.kind == ValueKind::NoneValue ||
           (v.kind == ValueKind::Qualified && v.text.starts_with("torch.") &&
            v.text.find('.', 6) == std::string_view::npos); // `torch.float64`, not a call
  });
}

/// The shape of an elementwise result whose every tensor operand has a
/// known shape: `-a`, `a + 1`, `a * b`, `torch.where(m, a, b)`, `a.float()`.
std::optional<std::vector<double>> elementwiseShape(RuleContext &ctx, const Op *op, int &budget) {
  std::vector<const Op *> operands;
  if (op->is(OpKind::UnaryOp) && isOneOf(op->text, {"-", "+", "~"}))
    operands = {op->operand(0)};
  else if ((op->is(OpKind::BinaryOp) && op->text != "@") ||
           (op->is(OpKind::Compare) && op->operands.size() == 2)) // `a[:, None] > 0`
    operands = {op->operand(0), op->operand(1)};
  else if (op->is(OpKind::Call) && op->operand(0))
    for (const Value &v : ctx.valuesOf(op->operand(0))) {
      const Op *callee = op->operand(0);
      if (v.kind == ValueKind::Qualified)
        operands = elementwiseOperands(*op, libraryFunction(v.text), nullptr);
      else if (v.kind == ValueKind::Method && callee->is(OpKind::Attribute))
        operands = elementwiseOperands(*op, callee->text, callee->operand(0));
      if (!operands.empty())
        break;
    }
  std::vector<std::vector<double>> shapes;
  for (const Op *o : operands) {
    if (isScalar(ctx, o))
      continue;
    std::optional<std::vector<double>> shape = shapeWithin(ctx, o, budget);
    if (!shape)
      return std::nullopt;
    shapes.push_back(std::move(*shape));
  }
  if (shapes.empty())
    return std::nullopt;
  return broadcastOf(shapes);
}

/// The shape a torch or numpy factory of constant sizes gives `op`.
std::optional<std::vector<double>> madeShape(RuleContext &ctx, const Op *op) {
  if (!op->is(OpKind::Call))
    return std::nullopt;
  for (const Value &v : ctx.valuesOf(op->operand(0))) {
    if (v.kind != ValueKind::Qualified)
      continue;
    std::string_view q = v.text;
    std::vector<const Op *> dims;
    if (isOneOf(q, {"torch.zeros", "torch.ones", "torch.empty", "torch.rand", "torch.randn"})) {
      dims = keywordArgument(*op, "size") ? std::vector<const Op *>{keywordArgument(*op, "size")}
                                          : spread(*op);
    } else if (isOneOf(q, {"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.full",
                           "torch.full"})) {
      dims = {argument(*op, 0, q == "torch.full" ? "size" : "shape")};
    } else if (isOneOf(q, {"torch.arange", "numpy.arange"})) {
      std::optional<double> n = stepsOf(ctx, positionalArguments(*op), false);
      if (!n)
        return std::nullopt;
      return std::vector<double>{*n};
    } else {
      continue;
    }
    if (dims.size() == 1)
      if (std::optional<std::vector<const Op *>> d = shapeOf(ctx, dims[0]))
        dims = *d;
    std::vector<double> shape;
    for (const Op *d : dims)
      if (std::optional<double> n = product(ctx, {d}))
        shape.push_back(*n);
      else
        return std::nullopt;
    return shape;
  }
  return std::nullopt;
}

} // namespace

/// The shape of the tensor `op` is, when a torch or numpy factory of a
/// constant shape made it (directly or through names bound once), or a view
/// of one.
std::optional<std::vector<double>> factoryShape(RuleContext &ctx, const Op *op) {
  int budget = 32;
  return shapeWithin(ctx, op, budget);
}

namespace {

std::optional<double> listedElements(RuleContext &ctx, const Op *seq, int depth);
std::optional<double> listedDirectly(RuleContext &ctx, const Op *seq, int depth);

/// Whether a read of a list name may give the list another name, through
/// which it could grow where ivc does not count (`a = xs`, `f(xs)`,
/// `ys.append(xs)`, `g = xs.append`, `xs[:0] = ...`). Library functions and
/// builtins copy or only read what they are given.
bool mayAlias(RuleContext &ctx, const Op &read) {
  UseIndex &uses = ctx.values.uses();
  const Op *user = uses.userOf(&read);
  if (!user)
    return true;
  switch (user->kind) {
  case OpKind::Attribute: {
    const Op *call = uses.userOf(user);
    return !call || !call->is(OpKind::Call) || call->operand(0) != user;
  }
  case OpKind::Subscript: return user->ctx != Ctx::Load;
  case OpKind::Keyword:
    user = uses.userOf(user);
    [[fallthrough]];
  case OpKind::Call: {
    if (!user || !user->is(OpKind::Call) || user->operand(0) == &read)
      return true;
    ValueSet callee = ctx.valuesOf(user->operand(0));
    return callee.empty() || llvm::any_of(callee, [](const Value &v) {
             return v.kind != ValueKind::Builtin && v.kind != ValueKind::Qualified;
           });
  }
  case OpKind::For: return user->operand(1) != &read;
  // (Not `and`/`or` or `if else`: they give the list itself.)
  case OpKind::CompFor: case OpKind::Compare: case OpKind::UnaryOp: case OpKind::BinaryOp:
  case OpKind::If: case OpKind::While: case OpKind::ListComp: case OpKind::SetComp:
  case OpKind::DictComp: case OpKind::GeneratorExp:
    return false;
  default: return true;
  }
}

/// What `xs = xs + seq` (or `seq + xs`) adds to the list `s`, or null.
const Op *concatenatedTo(RuleContext &ctx, const Op *value, const Symbol *s) {
  if (!value || !value->is(OpKind::BinaryOp) || value->text != "+")
    return nullptr;
  for (int side = 0; side < 2; ++side)
    if (const Op *own = value->operand(side);
        own && own->is(OpKind::Name) && symbolOf(ctx, own) == s)
      return value->operand(1 - side);
  return nullptr;
}

/// Whether `call` appends a tensor ivc cannot size more times than a
/// `repeat` of one may make copies (2^20 appends of an activation), in
/// loops of lengths ivc evaluates (a loop over the model's layers, of a
/// length it cannot, is how traces collect).
bool blindCopies(RuleContext &ctx, const Op &call, const Op *item) {
  double times = timesRun(ctx, call);
  return item && std::isfinite(times) && times > double(MaxBlindRepetitions) &&
         allTensors(ctx, item) && !tensorElements(ctx, item);
}

/// The elements of the tensors a list name holds: those of what it is bound
/// to, and of every sized tensor added to it (`append`, `insert`, `extend`,
/// `+=`, `xs = xs + [z]`), as many times as the loops around the addition
/// run. Nothing when an item is not sized (an activation's) or a binding is
/// of another kind; unbounded when the list may have another name.
std::optional<double> appendedElements(RuleContext &ctx, const Op *name, int depth) {
  const Symbol *s = symbolOf(ctx, name);
  if (!s || s->bindings.empty() || ctx.values.fromCaller(name))
    return std::nullopt;
  UseIndex &uses = ctx.values.uses();
  // What ivc counts, and whether anything is left it cannot: then only a
  // count already too large is an answer (`xs = np.split(...)` beside
  // 2^16 appends of a 2^14-element z), and another name for the list adds
  // nothing to what is unknown already.
  double n = 0;
  bool uncounted = false;
  auto add = [&](std::optional<double> k, double times) {
    if (k)
      n += *k * times;
    else
      uncounted = true;
  };
  for (const Binding &b : s->bindings) {
    const Op *stmt = b.kind == Binding::Kind::AugAssign ? uses.userOf(b.site) : nullptr;
    if (stmt && stmt->is(OpKind::AugAssign) && isOneOf(stmt->text, {"+=", "|="}))
      continue; // an addition, below
    if (b.kind != Binding::Kind::Assign || !b.path.empty() || !b.value)
      uncounted = true;
    else if (const Op *added = concatenatedTo(ctx, b.value, s))
      add(listedElements(ctx, added, depth + 1), timesRun(ctx, *b.value));
    else
      add(listedElements(ctx, b.value, depth + 1), 1);
  }
  std::vector<const Op *> others;
  for (const Addition &a : additionsTo(ctx, *s, /*deep=*/false, &others)) {
    if (!a.sequence && blindCopies(ctx, *a.at, a.value))
      return HUGE_VAL;
    add(a.sequence ? listedElements(ctx, a.value, depth + 1)
                   : tensorElements(ctx, a.value, depth + 1),
        timesRun(ctx, *a.at));
  }
  if (!uncounted && llvm::any_of(others, [&](const Op *read) { return mayAlias(ctx, *read); }))
    return HUGE_VAL;
  if (uncounted && n <= MaxTensorElements)
    return std::nullopt;
  return n;
}

/// Whether a display lists tensors alone.
bool listsTensors(RuleContext &ctx, const Op *seq) {
  return seq && (seq->is(OpKind::List) || seq->is(OpKind::Tuple)) && !seq->operands.empty() &&
         llvm::all_of(seq->operands, [&](const Op *o) { return o && allTensors(ctx, o); });
}

/// The name a sequence argument comes out of: `xs` of `xs[0]`,
/// `list(d.values())`, `tuple(xs)`; or null.
const Op *containerName(RuleContext &ctx, const Op *seq) {
  for (int depth = 0; seq && depth < 8; ++depth) {
    if (seq->is(OpKind::Name))
      return seq;
    if (seq->is(OpKind::Subscript)) {
      seq = seq->operand(0);
    } else if (seq->is(OpKind::Call) && seq->operand(0) &&
               seq->operand(0)->is(OpKind::Attribute) &&
               isOneOf(seq->operand(0)->text, {"values", "copy"})) {
      seq = seq->operand(0)->operand(0);
    } else if (seq->is(OpKind::Call) && llvm::all_of(ctx.valuesOf(seq->operand(0)), [](const Value &v) {
                 return v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "tuple"});
               })) {
      seq = positionalArgument(*seq, 0);
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// The elements of the sized tensors a loop adds to a container, however
/// deep in it (`xs[0].append(z)`, `d[i] = z`), as many times as it runs:
/// a lower bound of what a sequence out of it may hold, which is the answer
/// only when it is too much already.
std::optional<double> addedBelow(RuleContext &ctx, const Op *seq, int depth) {
  const Op *name = containerName(ctx, seq);
  const Symbol *s = name ? symbolOf(ctx, name) : nullptr;
  if (!s)
    return std::nullopt;
  double n = 0;
  for (const Addition &a : additionsTo(ctx, *s, /*deep=*/true))
    if (std::optional<double> k = a.sequence ? listedElements(ctx, a.value, depth + 1)
                                             : tensorElements(ctx, a.value, depth + 1))
      n += *k * timesRun(ctx, *a.at);
  return n > MaxTensorElements ? std::optional<double>(n) : std::nullopt;
}

/// The elements of the tensors a sequence argument lists (`[a, b]`,
/// `(t,) * n`, a list a loop fills), when every one is sized.
std::optional<double> listedElements(RuleContext &ctx, const Op *seq, int depth) {
  if (!seq || depth > 8)
    return std::nullopt;
  if (std::optional<double> direct = listedDirectly(ctx, seq, depth))
    return direct;
  return addedBelow(ctx, seq, depth);
}

std::optional<double> listedDirectly(RuleContext &ctx, const Op *seq, int depth) {
  if (seq->is(OpKind::Name))
    return appendedElements(ctx, seq, depth);
  if (seq->is(OpKind::List) || seq->is(OpKind::Tuple)) {
    double n = 0;
    for (size_t i = 0; i < seq->operands.size(); ++i) {
      std::optional<double> item = tensorElements(ctx, seq->operand(i), depth + 1);
      if (!item && callersShape(ctx, seq->operand(i)))
        item = CallersTensorElements;
      if (!item)
        return std::nullopt;
      n += *item;
    }
    return n;
  }
  // A comprehension: its length times what it yields (`[z for _ in
  // range(2**16)]` of one 2^14-element z).
  if (seq->is(OpKind::ListComp) || seq->is(OpKind::GeneratorExp)) {
    std::optional<double> length = iterableLength(ctx, seq);
    for (const Region &r : length ? seq->regions : std::span<Region>())
      for (const Op *c : r.ops)
        if (c->is(OpKind::CompYield))
          if (std::optional<double> item = tensorElements(ctx, c->operand(0), depth + 1))
            return *length * *item;
    return std::nullopt;
  }
  if (seq->is(OpKind::BinaryOp) && seq->text == "+") {
    std::optional<double> a = listedElements(ctx, seq->operand(0), depth + 1);
    std::optional<double> b = a ? listedElements(ctx, seq->operand(1), depth + 1) : std::nullopt;
    return b ? std::optional<double>(*a + *b) : std::nullopt;
  }
  if (seq->is(OpKind::BinaryOp) && seq->text == "*") {
    for (int side = 0; side < 2; ++side) {
      std::optional<double> times = product(ctx, {seq->operand(1 - side)});
      if (!times)
        continue;
      if (std::optional<double> n = listedElements(ctx, seq->operand(side), depth + 1))
        return *n * std::max(0.0, *times);
      // Copies of tensors ivc cannot size (`[h] * 2**20` of an activation),
      // as `repeat` of one is judged.
      if (*times > double(MaxBlindRepetitions) && listsTensors(ctx, seq->operand(side)))
        return HUGE_VAL;
    }
  }
  return std::nullopt;
}

/// The elements of `numpy.pad(array, widths)`: each dimension of the array
/// (one element when ivc cannot size it) grows by its widths, given as one
/// number for every side, one (before, after) pair for every dimension, or a
/// pair for each.
std::optional<double> paddedElements(RuleContext &ctx, const Op *array, const Op *widths) {
  widths = valueBehindNames(ctx, widths);
  if (!widths)
    return std::nullopt;
  auto items = [](const Op *o) {
    std::vector<const Op *> out;
    if (o && (o->is(OpKind::Tuple) || o->is(OpKind::List)))
      out.assign(o->operands.begin(), o->operands.end());
    return out;
  };
  // What a dimension grows by: a number on both sides, or a pair's sum.
  auto growth = [&](const Op *o) -> std::optional<double> {
    std::vector<const Op *> pair = items(o);
    if (pair.empty())
      pair = {o, o};
    double sum = 0;
    for (const Op *w : pair) {
      std::optional<double> n = product(ctx, {w});
      if (!n)
        return std::nullopt;
      sum += std::max(*n, 0.0);
    }
    return sum;
  };
  std::vector<const Op *> outer = items(widths);
  bool perDimension = !outer.empty() && !items(outer[0]).empty();
  std::vector<double> grown; // per dimension, or one for all
  for (const Op *o : perDimension ? outer : std::vector<const Op *>{widths}) {
    std::optional<double> g = growth(o);
    if (!g)
      return std::nullopt;
    grown.push_back(*g);
  }
  std::vector<double> shape = factoryShape(ctx, array).value_or(std::vector<double>{});
  size_t dims = std::max(shape.size(), grown.size());
  double n = 1;
  for (size_t i = 0; i < dims; ++i)
    n *= (i < shape.size() ? shape[i] : 1) + grown[std::min(i, grown.size() - 1)];
  return n;
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
  // Every ufunc's `outer` too (`np.add.outer`).
  if (isOneOf(f, {"outer", "ger", "kron"}) || (!self && f.ends_with(".outer"))) {
    std::optional<double> a = sized(0), b = sized(1);
    return a && b ? std::optional<double>(*a * *b) : std::nullopt;
  }
  // The product of the operands' elements from the `first`.
  auto productFrom = [&](size_t first) -> std::optional<double> {
    double n = 1;
    for (size_t i = first; i < operands.size(); ++i) {
      std::optional<double> k = sized(i);
      if (!k)
        return std::nullopt;
      n *= *k;
    }
    return n;
  };
  // Every combination of the operands' items, as many tensors or columns.
  auto cartesian = [&]() -> std::optional<double> {
    std::optional<double> n = productFrom(0);
    return n ? std::optional<double>(*n * double(operands.size())) : std::nullopt;
  };
  if (f == "cartesian_prod" && !self)
    return cartesian();
  if (f == "combinations") {
    std::optional<double> n = sized(0);
    const Op *r = self ? argument(call, 0, "r") : argument(call, 1, "r");
    std::optional<double> k = r ? product(ctx, {r}) : std::optional<double>(2);
    return n && k ? std::optional<double>(combinationElements(*n, *k)) : std::nullopt;
  }
  if (!self && isOneOf(f, {"cat", "concat", "concatenate", "stack", "hstack", "vstack",
                           "dstack", "column_stack", "row_stack", "array", "tensor"}))
    return listedElements(ctx, argument(call, 0, "tensors"), depth);
  // Indices of every element (int64, one column per dimension: four when
  // ivc does not know how many; one-argument `where` is `nonzero`), and
  // every bit of a byte array as a byte.
  if (!self && f == "flatnonzero") // numpy's: one int64 column
    if (std::optional<double> a = sized(0))
      return *a * 2;
  if (isOneOf(f, {"nonzero", "argwhere"}) || (!self && f == "where" && operands.size() == 1))
    if (std::optional<double> a = sized(0)) {
      std::optional<std::vector<double>> shape = factoryShape(ctx, operands[0]);
      return *a * 2 * (shape ? std::max<double>(double(shape->size()), 1) : 4);
    }
  if (f == "unpackbits")
    if (std::optional<double> a = sized(0))
      return *a * 2;
  if (isOneOf(f, {"diagflat", "diag_embed"})) // a vector's square
    if (std::optional<double> v = sized(0))
      return *v * *v;
  if (f == "meshgrid" && !self) // one grid per 1-D input, each the product
    return cartesian();
  if (f == "vander") { // (x, N): |x| rows of N columns, N = |x| by default
    std::optional<double> x = sized(0);
    const Op *n = self ? argument(call, 0, "N") : argument(call, 1, "N");
    std::optional<double> cols = n ? product(ctx, {n}) : x;
    return x && cols ? std::optional<double>(*x * *cols) : std::nullopt;
  }
  if (f == "nn.functional.one_hot") { // int64, |t| x num_classes
    std::optional<double> t = sized(0), classes = product(ctx, {argument(call, 1, "num_classes")});
    return classes && *classes > 0 ? std::optional<double>(2 * *classes * t.value_or(1))
                                   : std::nullopt;
  }
  if (!self && f == "tile") // numpy.tile(A, reps), torch.tile(t, dims)
    if (std::optional<double> a = sized(0))
      if (std::optional<double> times = shapeElements(ctx, {argument(call, 1, "reps")}))
        return *a * *times;
  if (!self && f == "repeat") // numpy.repeat(a, n)
    if (std::optional<double> a = sized(0))
      if (std::optional<double> times = product(ctx, {argument(call, 1, "repeats")}))
        return *a * *times;
  if (!self && f == "tri") { // numpy.tri(N, M)
    const Op *n = argument(call, 0, "N"), *m = argument(call, 1, "M");
    return product(ctx, {n, m ? m : n});
  }
  if (!self && f == "tensordot") // dims=0 (numpy: axes=0) is the outer product
    if (const Op *d = keywordArgument(call, "axes") ? keywordArgument(call, "axes")
                                                    : argument(call, 2, "dims");
        d && product(ctx, {d}) == 0.0) {
      std::optional<double> a = sized(0), b = sized(1);
      return a && b ? std::optional<double>(*a * *b) : std::nullopt;
    }
  if (f == "nn.functional.interpolate") // at least the size asked for
    if (std::optional<std::vector<const Op *>> size = shapeOf(ctx, argument(call, 1, "size")))
      return product(ctx, *size);
  if (!self && f == "pad") // numpy's: every dimension grows by the widths around it
    return paddedElements(ctx, operands.empty() ? nullptr : operands[0],
                          argument(call, 1, "pad_width"));
  if (isOneOf(f, {"nn.functional.pad", "constant_pad_nd"})) {
    // At least the padding, whatever the input: pairs of widths, the last
    // dimension's first, each pair growing its dimension by their sum.
    const Op *pad = argument(call, 1, "pad");
    std::optional<std::vector<const Op *>> widths = shapeOf(ctx, pad);
    double n = 1;
    bool any = false;
    for (size_t i = 0; widths && i < widths->size(); i += 2) {
      double grown = product(ctx, {(*widths)[i]}).value_or(0);
      if (i + 1 < widths->size())
        grown += product(ctx, {(*widths)[i + 1]}).value_or(0);
      any |= grown > 0;
      n *= std::max(grown, 0.0) + 1; // of a dimension of one element at least
    }
    return any ? std::optional<double>(n) : std::nullopt;
  }
  // Rows by rows: distances and covariances between every pair of rows, a
  // block diagonal of every block's rows by every block's columns.
  auto rows = [&](size_t i) -> std::optional<double> {
    std::optional<std::vector<double>> shape =
        i < operands.size() ? factoryShape(ctx, operands[i]) : std::nullopt;
    if (!shape)
      return std::nullopt;
    return shape->size() >= 2 ? (*shape)[shape->size() - 2] : 1.0;
  };
  if (!self && f == "cdist")
    if (std::optional<double> a = rows(0), b = rows(1); a && b)
      return *a * *b;
  if (isOneOf(f, {"pdist", "nn.functional.pdist"}))
    if (std::optional<double> a = rows(0))
      return *a * (*a - 1) / 2;
  // Windows: as many as the tensor has elements along the dimension, each
  // of the window's size (a view, which the next operation makes whole).
  if (self && f == "unfold")
    if (std::optional<double> a = sized(0), size = product(ctx, {argument(call, 1, "size")});
        a && size)
      return *a * *size;
  if (!self && f == "nn.functional.unfold") { // im2col: every pixel's patch
    const Op *k = argument(call, 1, "kernel_size");
    std::optional<std::vector<const Op *>> ks = shapeOf(ctx, k);
    std::optional<double> patch = ks ? product(ctx, *ks) : product(ctx, {k, k});
    if (std::optional<double> a = sized(0); a && patch)
      return *a * *patch;
  }
  // Every operand's elements by every other's, at most (`'i,j->ij'`).
  if (!self && f == "einsum" && operands.size() > 1)
    return productFrom(1);
  if (isOneOf(f, {"matmul", "linalg.matmul", "mm", "bmm", "inner", "dot"}) && operands.size() == 2)
    return matmulElements(ctx, operands[0], operands[1]);
  // input + m1 @ m2 (a batch's sum for addbmm: no larger).
  if (isOneOf(f, {"addmm", "baddbmm", "addbmm"}) && operands.size() >= 3)
    return matmulElements(ctx, operands[1], operands[2]);
  auto shapeAt = [&](size_t i) {
    return i < operands.size() ? factoryShape(ctx, operands[i]) : std::nullopt;
  };
  auto leading = [](const std::vector<double> &shape) { // all but the last dimension
    double n = 1;
    for (size_t i = 0; i + 1 < shape.size(); ++i)
      n *= shape[i];
    return n;
  };
  // input rows by the weight's output features (its first dimension).
  if (!self && isOneOf(f, {"nn.functional.linear", "nn.functional.bilinear"})) {
    std::optional<std::vector<double>> x = shapeAt(0), w = shapeAt(f.ends_with("bilinear") ? 2 : 1);
    if (x && w && !x->empty() && !w->empty())
      return leading(*x) * (w->size() >= 2 ? w->front() : 1.0);
  }
  // A chain's products: every first factor's rows by every later one's columns.
  if (!self && isOneOf(f, {"chain_matmul", "linalg.multi_dot"})) {
    std::vector<const Op *> factors = operands;
    if (f == "linalg.multi_dot") {
      const Op *list = operands.empty() ? nullptr : valueBehindNames(ctx, operands[0]);
      if (!list || !(list->is(OpKind::List) || list->is(OpKind::Tuple)))
        return std::nullopt;
      factors.assign(list->operands.begin(), list->operands.end());
    }
    double most = 0;
    for (size_t i = 0; i < factors.size(); ++i)
      for (size_t j = i + 1; j < factors.size(); ++j)
        if (std::optional<double> n = matmulElements(ctx, factors[i], factors[j]))
          most = std::max(most, *n);
    return most > 0 ? std::optional<double>(most) : std::nullopt;
  }
  if (!self && f == "tensordot") // contracts a's last k dimensions with b's first k
    if (std::optional<double> k = product(ctx, {argument(call, 2, "dims")}); k && *k >= 1)
      if (std::optional<std::vector<double>> a = shapeAt(0), b = shapeAt(1);
          a && b && *k <= double(std::min(a->size(), b->size()))) {
        double n = 1;
        for (size_t i = 0; i < a->size() - size_t(*k); ++i)
          n *= (*a)[i];
        for (size_t i = size_t(*k); i < b->size(); ++i)
          n *= (*b)[i];
        return n;
      }
  // A gather: the index's elements, each a row of the source's.
  auto gathered = [&](size_t index, size_t source, const Op *along) -> std::optional<double> {
    std::optional<double> n = sized(index);
    std::optional<std::vector<double>> shape = shapeAt(source);
    if (!n)
      return std::nullopt;
    return *n * (shape ? rowElements(ctx, *shape, along) : 1.0);
  };
  if (!self && isOneOf(f, {"nn.functional.embedding", "nn.functional.embedding_bag"}))
    return gathered(0, 1, nullptr);
  if (f == "index_select" && operands.size() >= 3) // (input, dim, index)
    return gathered(2, 0, operands[1]);
  if (isOneOf(f, {"cov", "corrcoef"}))
    if (std::optional<double> a = rows(0))
      return *a * *a;
  if (!self && f == "addr") // input + v1 outer v2
    if (std::optional<double> a = sized(1), b = sized(2); a && b)
      return *a * *b;
  if (!self && f == "block_diag") {
    double r = 0, c = 0;
    for (size_t i = 0; i < operands.size(); ++i) {
      std::optional<std::vector<double>> shape = factoryShape(ctx, operands[i]);
      if (!shape)
        return std::nullopt;
      r += shape->size() >= 2 ? (*shape)[0] : 1;
      c += shape->empty() ? 1 : shape->back();
    }
    return r * c;
  }
  // Otherwise, at least what the operands of known shapes broadcast to,
  // whatever the function (`torch.mul(a[:, None], a[None])`, `F.mse_loss(x, y,
  // reduction="none")`, `torch.cosine_similarity` of broadcast views: each
  // makes the broadcast first). Only past the limit: what such a call
  // returns may be smaller (a reduction).
  std::optional<double> n = broadcastElements(ctx, callOperands(call, self), /*together=*/true);
  return n && *n > MaxTensorElements ? n : std::nullopt;
}

/// A tensor method call however it is spelled: `t.m(args)`, unbound
/// `torch.Tensor.m(t, args)` or a function `torch.m(t, args)` of the same
/// arguments (`skipped` is 1 for those two: the receiver comes first).
struct MethodCall {
  const Op &call;
  std::string_view name; // the torch method it amounts to
  const Op *self;        // null when out of sight (`f = t.m; f(args)`)
  size_t skipped;

  const Op *arg(size_t i, std::string_view keyword) const {
    return argument(call, i + skipped, keyword);
  }
  std::vector<const Op *> dims() const {
    std::vector<const Op *> d = spread(call);
    d.erase(d.begin(), d.begin() + std::min(skipped, d.size()));
    return d;
  }
};

/// Why a method that makes a Python object per row or element of a tensor
/// a factory of constant shape made (`unbind`, `split`, `chunk`, `tolist`;
/// `torch.zeros(2**24).unbind()` made 11 GB of tensor objects in one call),
/// or a vector's square (`diag`), may make too many, if it may.
std::optional<std::string> piecesCost(RuleContext &ctx, const MethodCall &mc) {
  std::string_view m = mc.name;
  // Other spellings of the same splits.
  if (isOneOf(m, {"split_copy", "unsafe_split"}))
    m = "split";
  else if (m == "unbind_copy")
    m = "unbind";
  else if (isOneOf(m, {"unsafe_chunk", "hsplit", "vsplit", "tensor_split"}))
    m = "chunk";
  if (!isOneOf(m, {"unbind", "split", "chunk", "tolist", "diag"}))
    return std::nullopt;
  std::optional<std::vector<double>> shape = factoryShape(ctx, mc.self);
  if (!shape) {
    // A tensor the mediator shaped otherwise (`h.new_zeros(0, 2**22)`,
    // `.flatten(1)` of a zero-size one): as many pieces as its span.
    std::optional<double> span = m != "diag" && mc.self ? spanBound(ctx, mc.self) : std::nullopt;
    if (span && *span > double(1 << 16))
      return "makes up to " + countText(*span) + (m == "tolist" ? " Python objects" : " tensors");
    return std::nullopt;
  }
  if (shape->empty())
    return std::nullopt;
  double rows = shape->front(), elements = 1, lists = 0;
  for (double d : *shape) {
    lists += elements; // one list per item of the dimensions before
    elements *= d;
  }
  // `tolist` makes a Python object of every element and a list of every
  // row, empty ones included (`torch.zeros(2**26, 0).tolist()`).
  if (m == "tolist" && elements + lists > double(MaxElements))
    return "makes " + countText(elements + lists) + " Python objects";
  if (m == "diag" && shape->size() == 1 && rows * rows > MaxTensorElements)
    return "makes a tensor of " + elementsText(rows * rows, 1) + " from a vector";
  // The dimension split: the first, the one named, or the longest when ivc
  // cannot tell which.
  auto along = [&](const Op *dim) {
    if (!dim)
      return rows;
    std::optional<double> d = numberValue(ctx, dim);
    double n = double(shape->size());
    if (d && *d < 0)
      *d += n;
    return d && *d >= 0 && *d < n ? (*shape)[size_t(*d)]
                                  : *std::max_element(shape->begin(), shape->end());
  };
  std::optional<double> pieces;
  if (m == "unbind")
    pieces = along(mc.arg(0, "dim"));
  if (m == "split")
    if (std::optional<double> size = numberValue(ctx, mc.arg(0, "split_size_or_sections"));
        size && *size >= 1)
      pieces = std::ceil(along(mc.arg(1, "dim")) / *size);
  if (m == "chunk")
    if (std::optional<double> n = numberValue(ctx, mc.arg(0, "chunks")))
      pieces = std::min(*n, along(mc.arg(1, "dim")));
  if (pieces && *pieces > double(1 << 16))
    return "makes " + countText(*pieces) + " tensors";
  return std::nullopt;
}

/// Why a tensor method with constant sizes (`h.new_zeros(2**30)`,
/// `h.expand(2**18, 8, 768)`, `t.repeat(16)` of a 2^27-element `t`) may
/// allocate beyond the limit, if it may. The receiver's size is known only
/// when a factory of a constant shape made it.
std::optional<std::string> tensorMethodCost(RuleContext &ctx, const MethodCall &mc) {
  std::string_view m = mc.name;
  std::optional<double> receiver = tensorElements(ctx, mc.self);
  std::optional<double> n;
  if (isOneOf(m, {"new_zeros", "new_ones", "new_empty"}))
    n = keywordArgument(mc.call, "size") ? shapeElements(ctx, {keywordArgument(mc.call, "size")})
                                          : shapeElements(ctx, mc.dims());
  else if (m == "new_full")
    n = shapeElements(ctx, {mc.arg(0, "size")});
  else if (isOneOf(m, {"expand", "expand_copy", "broadcast_to"})) {
    // -1 keeps the receiver's size there: counted as the whole receiver
    // when ivc sizes it (`t.unsqueeze(0).expand(2**16, -1)`), else as 1.
    std::vector<const Op *> dims;
    bool kept = false;
    for (const Op *d : mc.dims()) {
      bool keep = d && d->is(OpKind::UnaryOp) && d->text == "-";
      kept |= keep;
      if (!keep)
        dims.push_back(d);
    }
    n = shapeElements(ctx, dims);
    // Copies of a tensor ivc cannot size, as `repeat` is judged.
    if (n && kept && !receiver && *n > double(MaxBlindRepetitions))
      return "expands a tensor ivc cannot size " + countText(*n) + " times";
    if (n && kept)
      *n *= receiver.value_or(1);
  } else if (isOneOf(m, {"repeat", "tile", "repeat_interleave"})) {
    bool interleave = m == "repeat_interleave";
    const Op *repeats = interleave ? mc.arg(0, "repeats") : nullptr;
    std::optional<double> times =
        shapeElements(ctx, interleave ? std::vector<const Op *>{repeats} : mc.dims());
    // torch sums repeat_interleave's counts unchecked: a count it cannot
    // size, or the counts a tensor holds, may overflow into a short buffer.
    if (interleave && (!times || !std::isfinite(*times)))
      return std::string("repeats a tensor by counts ivc cannot bound (their sum may overflow)");
    if (!times)
      return std::nullopt;
    if (!receiver && mc.self && callersShape(ctx, mc.self))
      receiver = CallersTensorElements;
    if (!receiver) { // (a chain of them repeats the first the product of its counts)
      double blind = *times * blindRepeats(ctx, mc.self);
      return blind > double(MaxBlindRepetitions)
                 ? std::optional<std::string>("repeats a tensor " + countText(blind) + " times")
                 : std::nullopt;
    }
    n = *times * *receiver;
  } else if (isOneOf(m, {"double", "long", "cumsum", "cumprod", "sort", "argsort", "to", "type"})) {
    // A copy in a wider type: 64 bits for double and long, for the int64
    // that cumsum and cumprod of an integer make, and for sort's indices
    // (beside the values); to and type as their dtype says.
    if (!receiver)
      return std::nullopt;
    double wider = isOneOf(m, {"sort", "argsort"}) ? 3 : 2;
    if (isOneOf(m, {"to", "type"})) {
      const Op *dtype = keywordArgument(mc.call, "dtype") ? keywordArgument(mc.call, "dtype")
                                                           : mc.arg(0, "dtype");
      wider = dtype ? widthOf(ctx, *dtype) : 1;
    }
    if (*receiver * wider > MaxTensorElements)
      return "makes a tensor of " + elementsText(*receiver, wider);
    return std::nullopt;
  } else if (std::optional<std::string> why = piecesCost(ctx, mc)) {
    return why;
  } else if (mc.self) {
    // The function forms list the receiver among their operands already.
    n = grownElements(ctx, mc.call, m, mc.skipped ? nullptr : mc.self, 0);
    if (n && *n > MaxTensorElements)
      return "makes a tensor of " + elementsText(*n, 1) + " from its operands";
  }
  double width = dtypeWidth(ctx, mc.call);
  if (n && *n * width > MaxTensorElements)
    return "makes a tensor of " + elementsText(*n, width);
  return std::nullopt;
}

/// The call `call` of `callee` as a tensor method, if it is one in any
/// spelling: on a value that may be a tensor, unbound, or one of the torch
/// and numpy functions the method rules size (numpy's `repeat` is torch's
/// `repeat_interleave`).
std::optional<MethodCall> asMethodCall(const Op &call, const Value &callee) {
  std::string_view name = callee.text;
  if (callee.kind == ValueKind::Method &&
      (callee.receiver == ValueKind::Tensor || callee.receiver == ValueKind::Activation ||
       callee.receiver == ValueKind::Unknown)) {
    const Op *attr = call.operand(0);
    return MethodCall{call, name, attr && attr->is(OpKind::Attribute) ? attr->operand(0) : nullptr,
                      0};
  }
  if (callee.kind != ValueKind::Qualified)
    return std::nullopt;
  if (name == "numpy.repeat")
    return MethodCall{call, "repeat_interleave", argument(call, 0, "a"), 1};
  if (name.starts_with("torch.Tensor.") ||
      isOneOf(name, {"torch.repeat_interleave", "torch.broadcast_to", "torch.tile", "numpy.tile",
                     "numpy.broadcast_to", "torch.unbind", "torch.split", "torch.chunk",
                     "torch.diag", "numpy.diag", "torch.split_copy", "torch.unsafe_split",
                     "torch.unbind_copy", "torch.unsafe_chunk", "torch.hsplit", "torch.vsplit",
                     "torch.expand_copy"}))
    return MethodCall{call, name.substr(name.rfind('.') + 1), argument(call, 0, "input"), 1};
  return std::nullopt;
}

/// Orthogonal polynomials of degree n take n steps per element,
/// matrix_power one product per bit of its exponent, and combinations one
/// grid per item taken: a degree, exponent or count ivc cannot bound may
/// not return.
std::optional<std::string> iterationCost(RuleContext &ctx, const Op &call, const Value &callee) {
  std::string_view q = callee.kind == ValueKind::Qualified ? std::string_view(callee.text) : "";
  bool method = callee.kind == ValueKind::Method &&
                (callee.receiver == ValueKind::Tensor || callee.receiver == ValueKind::Activation);
  bool polynomial =
      q.starts_with("torch.special.") && q.find("_polynomial_") != std::string_view::npos;
  bool matrixPower = isOneOf(q, {"torch.linalg.matrix_power", "torch.matrix_power"}) ||
                     (method && callee.text == "matrix_power");
  // torch.combinations(t, r) builds r grids whatever t holds: r = 2^16 + 1
  // of one element never returned (torch 1.13).
  if (q == "torch.combinations" || (method && callee.text == "combinations")) {
    const Op *r = argument(call, method ? 0 : 1, "r");
    Magnitude m = Sizer(ctx).of(r);
    if (!r || (m.value && *m.value >= 0 && *m.value <= 64))
      return std::nullopt;
    return "takes combinations of more than 64 items, or of a count ivc cannot bound";
  }
  if (!polynomial && !matrixPower)
    return std::nullopt;
  const Op *n = argument(call, method ? 0 : 1, "n");
  Magnitude m = Sizer(ctx).of(n);
  int64_t limit = polynomial ? int64_t(1) << 16 : int64_t(1) << 10;
  if (!n || (m.value && *m.value > -limit && *m.value < limit))
    return std::nullopt;
  return polynomial ? "evaluates a polynomial of a degree over 2^16 or that ivc cannot bound"
                    : "raises a matrix to a power over 2^10 or that ivc cannot bound";
}

} // namespace

std::optional<double> matmulElements(RuleContext &ctx, const Op *a, const Op *b) {
  std::optional<std::vector<double>> x = factoryShape(ctx, a), y = factoryShape(ctx, b);
  if (!x || !y || x->empty() || y->empty())
    return std::nullopt;
  // Every row of a (its dimensions but the last) by every column of b (its
  // elements over the dimension it contracts): at most, batches included.
  double rows = 1, columns = 1;
  for (size_t i = 0; i + 1 < x->size(); ++i)
    rows *= (*x)[i];
  for (size_t i = 0; i < y->size(); ++i)
    if (y->size() < 2 || i + 2 != y->size())
      columns *= (*y)[i];
  return rows * columns;
}

std::optional<std::string> matmulWorkCost(RuleContext &ctx, const Op *a, const Op *b) {
  std::optional<std::vector<double>> x = factoryShape(ctx, a);
  std::optional<double> out = matmulElements(ctx, a, b);
  if (!x || x->empty() || !out || *out > MaxTensorElements) // (too large: judged by its size)
    return std::nullopt;
  if (double work = *out * x->back(); work > MaxDenseProducts) // a row by a column each
    return "multiplies matrices in " + countText(work) + " multiply-adds in one call";
  return std::nullopt;
}

std::optional<std::string> denseAlgebraCost(RuleContext &ctx, const Op &call, const Value &callee) {
  // A factorization, inverse or exponential of an m-by-n matrix of known
  // shape costs about m·n·min(m, n) multiply-adds per matrix, in C calls
  // the host cannot stop (2000 by 2000: svd 18 s, matrix_exp 57 s).
  std::string_view f;
  const Op *matrix = nullptr;
  if (callee.kind == ValueKind::Qualified) {
    std::string_view q = callee.text;
    for (std::string_view lib : {"torch.linalg.", "numpy.linalg.", "torch."})
      if (q.starts_with(lib)) {
        f = q.substr(lib.size());
        break;
      }
    matrix = positionalArgument(call, 0);
  } else if (callee.kind == ValueKind::Method && call.operand(0) &&
             call.operand(0)->is(OpKind::Attribute)) {
    f = callee.text;
    matrix = call.operand(0)->operand(0);
  }
  if (matrix && isOneOf(f, {"matmul", "mm", "bmm"})) { // `a @ b` spelled as a call
    const Op *other = callee.kind == ValueKind::Method ? positionalArgument(call, 0)
                                                       : positionalArgument(call, 1);
    return other ? matmulWorkCost(ctx, matrix, other) : std::nullopt;
  }
  if (!matrix || !isOneOf(f, {"svd", "svdvals", "eig", "eigh", "eigvals", "eigvalsh", "inv",
                              "inverse", "pinv", "pinverse", "qr", "lstsq", "solve", "det",
                              "slogdet", "logdet", "matrix_exp", "cholesky", "lu",
                              "lu_factor", "matrix_rank", "cond", "norm"}) ||
      (f == "norm" && !argument(call, 1, "ord"))) // (a vector norm of every element)
    return std::nullopt;
  std::optional<std::vector<double>> shape = factoryShape(ctx, matrix);
  if (!shape || shape->size() < 2)
    return std::nullopt;
  double m = (*shape)[shape->size() - 2], n = shape->back();
  double work = elementsOf(*shape) * std::min(m, n);
  if (work > MaxDenseProducts)
    return "factors matrices of " + countText(m) + " by " + countText(n) + " (about " +
           countText(work) + " multiply-adds in one call)";
  return std::nullopt;
}

std::optional<std::string> gatherCost(RuleContext &ctx, const Op &subscript) {
  // `w[idx]` with an integer tensor of a constant size: a row of w per
  // index (a mask of booleans picks no more than w has).
  const Op *index = subscript.operand(1);
  if (subscript.ctx != Ctx::Load || !index)
    return std::nullopt;
  std::optional<double> n = tensorElements(ctx, index);
  const Op *made = valueBehindNames(ctx, index);
  const Op *dtype = made && made->is(OpKind::Call) ? keywordArgument(*made, "dtype") : nullptr;
  if (!n || (dtype && llvm::any_of(ctx.valuesOf(dtype), [](const Value &v) {
               return v.kind == ValueKind::Qualified && isOneOf(v.text, {"torch.bool", "numpy.bool_"});
             })))
    return std::nullopt;
  std::optional<std::vector<double>> shape = factoryShape(ctx, subscript.operand(0));
  double row = shape ? rowElements(ctx, *shape, nullptr) : 1;
  if (*n * row > MaxTensorElements)
    return "gathers a tensor of " + elementsText(*n * row, 1);
  return std::nullopt;
}

std::optional<std::string> broadcastCost(RuleContext &ctx, const Op &binary) {
  // `a[:, :, None] * b[None]` of an (n, m) and a (k, m) tensor: n·k·m.
  if (binary.text == "@") // a product, sized with matmul
    return std::nullopt;
  if (std::optional<double> n =
          broadcastElements(ctx, {binary.operand(0), binary.operand(1)}, /*together=*/false);
      n && *n > MaxTensorElements)
    return "broadcasts to a tensor of " + elementsText(*n, 1);
  return std::nullopt;
}

std::optional<std::string> rowsIteratedCost(RuleContext &ctx, const Op &at, const Op *iterable) {
  // Tensor.__iter__ is iter(self.unbind(0)): every row at once.
  if (!iterable || iterable->is(OpKind::Keyword) || !anyTensor(ctx, iterable))
    return std::nullopt;
  // (No argument of `at` is a dim: past the last.)
  return piecesCost(ctx, MethodCall{at, "unbind", iterable, at.operands.size()});
}

/// numpy's convolve, correlate and polymul multiply every element of one operand by
/// every one of the other, in one call that holds the interpreter: 2^16 by
/// 2^16 took 4.5 s.
std::optional<std::string> convolutionCost(RuleContext &ctx, const Op &call, const Value &callee) {
  if (callee.kind != ValueKind::Qualified ||
      !isOneOf(callee.text, {"numpy.convolve", "numpy.correlate", "numpy.polymul"}))
    return std::nullopt;
  auto sized = [&](size_t i, const char *name) -> std::optional<double> {
    const Op *a = argument(call, i, name);
    if (std::optional<double> n = tensorElements(ctx, a))
      return n;
    return a ? iterableLength(ctx, a) : std::nullopt;
  };
  std::optional<double> a = sized(0, "a"), v = sized(1, "v");
  if (!a || !v)
    return "convolves operands of sizes ivc cannot bound, every element by every element";
  if (*a * *v > MaxConvolutionProducts)
    return "convolves " + countText(*a) + " by " + countText(*v) +
           " elements, every element by every element";
  return std::nullopt;
}

std::optional<std::string> tensorCallCost(RuleContext &ctx, const Op &call, const Value &callee) {
  if (std::optional<std::string> why = iterationCost(ctx, call, callee))
    return why;
  if (std::optional<std::string> why = convolutionCost(ctx, call, callee))
    return why;
  if (std::optional<std::string> why = denseAlgebraCost(ctx, call, callee))
    return why;
  if (callee.kind == ValueKind::Qualified) {
    std::optional<double> n = factoryElements(ctx, call, callee.text);
    double width = dtypeWidth(ctx, call, defaultWidth(callee.text));
    if (n && *n * width > MaxTensorElements)
      return "allocates a tensor of " + elementsText(*n, width);
    std::string_view f = libraryFunction(callee.text);
    n = f.empty() ? std::nullopt : grownElements(ctx, call, f, nullptr, 0);
    if (n && *n > MaxTensorElements)
      return "makes a tensor of " + elementsText(*n, 1) + " from its operands";
  }
  if (std::optional<MethodCall> mc = asMethodCall(call, callee))
    if (std::optional<std::string> why = tensorMethodCost(ctx, *mc))
      return why;
  // `list(t)`, `zip(t, u)`, `itertools.islice(t, 1)`, `zip(*[t])`:
  // iterating a tensor unbinds it, whatever iterates it.
  bool builtin = callee.kind == ValueKind::Builtin &&
                 isOneOf(callee.text, {"list", "tuple", "iter", "enumerate", "reversed", "dict",
                                       "zip", "map", "filter"});
  bool library = callee.kind == ValueKind::Qualified &&
                 (callee.text.starts_with("itertools.") || callee.text.starts_with("statistics.") ||
                  isOneOf(callee.text, {"collections.deque", "collections.Counter", "math.fsum",
                                        "math.prod", "heapq.nlargest", "heapq.nsmallest",
                                        "functools.reduce"}));
  if (builtin || library)
    for (size_t i = isOneOf(callee.text, {"map", "filter", "itertools.starmap"}) ? 2 : 1;
         i < call.operands.size(); ++i) {
      // (`*t` itself is judged as what spreads t: checkIteration. What a
      // spread display or `chain.from_iterable([t])` holds is iterated.)
      const Op *arg = call.operand(i);
      bool spread = arg && arg->is(OpKind::Starred);
      const Op *held = spread ? arg->operand(0)
                       : callee.text == "itertools.chain.from_iterable" ? arg : nullptr;
      std::vector<const Op *> iterated;
      if (held && (held->is(OpKind::List) || held->is(OpKind::Tuple)))
        iterated.assign(held->operands.begin(), held->operands.end());
      else if (!spread)
        iterated.push_back(arg);
      for (const Op *each : iterated)
        if (std::optional<std::string> why = rowsIteratedCost(ctx, call, each))
          return why;
    }
  // A tensor that holds no element may span 2^29 (`torch.zeros(0, 2**15,
  // 2**14)`): a reduction over its empty dimension makes them all (one
  // over every dimension makes a number).
  const Op *attr = call.operand(0);
  if (callee.kind == ValueKind::Method && mayHoldTensor(callee.receiver) &&
      call.operands.size() > 1 &&
      isOneOf(callee.text, {"sum", "mean", "prod", "amax", "amin", "max", "min", "std", "var",
                            "norm", "any", "all", "logsumexp", "nansum", "nanmean", "count_nonzero"}) &&
      attr && attr->is(OpKind::Attribute))
    if (std::optional<double> span = spanBound(ctx, attr->operand(0));
        span && *span > MaxTensorElements)
      return "makes a tensor of up to " + countText(*span) + " elements of one that holds fewer";
  return std::nullopt;
}

} // namespace ivc::rules::cost
