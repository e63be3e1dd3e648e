//===- Calls.cpp - What a call may be, for a mediator to be FAST ----------===//
//
// A call is confirmed when every value its callee can be is: a pure builtin,
// a catalogued torch/numpy/math function, a pure stdlib helper, a function or
// lambda of this file (its code is checked where it is), the model or one of
// its submodules, an nnsight envoy or tracer primitive, or a method of a
// tensor, string or container that the catalog or the pure method lists name.
// Anything else is ISOLATE: an uncatalogued function (IVC305), a class
// (IVC306), or a callee ivc cannot resolve (IVC304).
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

bool pureBuiltin(std::string_view b) {
  if (isOneOf(b, {"abs", "all", "any", "ascii", "bin", "bool", "bytes", "callable", "chr",
                  "complex", "dict", "divmod", "enumerate", "filter", "float", "format",
                  "frozenset", "hash", "hex", "int", "isinstance", "issubclass", "iter", "len",
                  "list", "map", "max", "min", "next", "oct", "ord", "pow", "print", "range",
                  "repr", "reversed", "round", "set", "slice", "sorted", "str", "sum", "tuple",
                  "zip", "bytearray"}))
    return true;
  // Exception classes: raising is control flow, not an escape.
  return b.size() > 5 && (b.ends_with("Error") || b.ends_with("Exception") ||
                          b.ends_with("Warning") || b == "StopIteration");
}

// Pure helpers of safe stdlib modules the op catalog (torch, numpy, math) does
// not cover. Infinite iterators (itertools.count, cycle, repeat) are left out:
// a FAST mediator runs in the server process.
bool pureStdlib(std::string_view q) {
  return isOneOf(q, {"itertools.accumulate", "itertools.chain", "itertools.chain.from_iterable",
                     "itertools.combinations", "itertools.combinations_with_replacement",
                     "itertools.compress", "itertools.dropwhile", "itertools.filterfalse",
                     "itertools.groupby", "itertools.islice", "itertools.pairwise",
                     "itertools.permutations", "itertools.product", "itertools.starmap",
                     "itertools.takewhile", "itertools.zip_longest", "functools.partial",
                     "functools.reduce", "operator.add", "operator.sub", "operator.mul",
                     "operator.truediv", "operator.floordiv", "operator.mod", "operator.pow",
                     "operator.neg", "operator.pos", "operator.abs", "operator.matmul",
                     "operator.eq", "operator.ne", "operator.lt", "operator.le", "operator.gt",
                     "operator.ge", "operator.and_", "operator.or_", "operator.xor",
                     "operator.not_", "operator.contains", "operator.itemgetter",
                     "operator.attrgetter", "operator.methodcaller", "collections.defaultdict",
                     "collections.OrderedDict", "collections.Counter", "collections.deque",
                     // Python loops over the data (a deadline interrupts them), or fsum
                     "statistics.mean", "statistics.fmean", "statistics.pstdev",
                     "statistics.stdev", "statistics.pvariance", "statistics.variance",
                     "contextlib.nullcontext"});
}

/// Whether `call`'s first argument, which `nnsight.apply(fn, ...)` and
/// `tracer.apply(fn, ...)` call, is a function or lambda of the file.
bool appliesFileFunction(RuleContext &ctx, const Op &call) {
  const Op *fn = call.operand(1);
  if (!fn || fn->is(OpKind::Keyword) || fn->is(OpKind::Starred) || fn->is(OpKind::KwSplat))
    return false;
  const ValueSet &values = ctx.valuesOf(fn);
  return !values.empty() && llvm::all_of(values, [](const Value &v) {
    return v.kind == ValueKind::UserFunction || v.kind == ValueKind::Lambda;
  });
}

// nnsight's functions that need no tracer; a runtime binds them itself
// (`nnsight.save(x)` returns x, saved by name like `x.save()`). save takes
// one value and nothing else: `nnsight.save(h, path)` is no nnsight call.
// `nnsight.apply(fn, *args)` is the call `fn(*args)`: confirmed only for a
// function or lambda of the file, judged where it is defined (the checks of
// a catalogued function's arguments would not see them here).
bool nnsightCall(RuleContext &ctx, std::string_view q, const Op &call) {
  if (q == "nnsight.save") {
    const Op *saved = call.operands.size() == 2 ? call.operand(1) : nullptr;
    return saved && !saved->is(OpKind::Keyword) && !saved->is(OpKind::Starred) &&
           !saved->is(OpKind::KwSplat);
  }
  if (q == "nnsight.apply")
    return appliesFileFunction(ctx, call);
  return isOneOf(q, {"nnsight.list", "nnsight.dict", "nnsight.log"});
}

bool pureStrMethod(std::string_view m) {
  return isOneOf(m, {"capitalize", "casefold", "center", "count", "encode", "endswith",
                     "expandtabs", "find", "index", "isalnum", "isalpha", "isascii", "isdecimal",
                     "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
                     "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition",
                     "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
                     "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith",
                     "strip", "swapcase", "title", "upper", "zfill", "decode",
                     // what `s[i]`, `x in s` and `len(s)` call (References.cpp)
                     "__getitem__", "__contains__", "__len__"});
}

bool pureContainerMethod(std::string_view m) {
  return isOneOf(m, {"append", "clear", "copy", "count", "extend", "index", "insert", "pop",
                     "remove", "reverse", "sort", "get", "items", "keys", "values", "setdefault",
                     "update", "popitem", "add", "discard", "difference", "intersection",
                     "union", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
                     "difference_update", "intersection_update", "symmetric_difference_update",
                     "most_common", "appendleft", "popleft", "extendleft",
                     // what `xs[i]`, `x in xs` and `len(xs)` call (References.cpp)
                     "__getitem__", "__contains__", "__len__"});
}

bool envoyMethod(std::string_view m) {
  return isOneOf(m, {"save", "skip", "next", "all", "parameters", "named_parameters"});
}

bool tracerMethod(std::string_view m) {
  return isOneOf(m, {"invoke", "iter", "all", "barrier", "cache", "stop", "apply", "log", "next"});
}

// Methods every torch.nn.Module has (dir(torch.nn.Module), torch 1.13) and
// the Hugging Face methods that write files or change the model: on an
// envoy they reach the shared module itself (hooks, state, device, I/O),
// where an envoy's other attributes are its submodules. `forward`,
// `parameters` and `named_parameters` read only.
bool moduleMethod(std::string_view m) {
  return isOneOf(m, {"add_module", "apply", "bfloat16", "buffers", "children", "cpu", "cuda",
                     "double", "eval", "extra_repr", "float", "get_buffer", "get_extra_state",
                     "get_parameter", "get_submodule", "half", "ipu", "load_state_dict",
                     "modules", "named_buffers", "named_children", "named_modules",
                     "register_backward_hook", "register_buffer", "register_forward_hook",
                     "register_forward_pre_hook", "register_full_backward_hook",
                     "register_full_backward_pre_hook", "register_load_state_dict_post_hook",
                     "register_module", "register_parameter", "register_state_dict_pre_hook",
                     "requires_grad_", "set_extra_state", "share_memory", "state_dict", "to",
                     "to_empty", "train", "type", "xpu", "zero_grad",
                     // Hugging Face models, configs and tokenizers
                     "save_pretrained", "push_to_hub", "from_pretrained", "to_json_file",
                     "save_vocabulary", "resize_token_embeddings", "tie_weights",
                     "init_weights", "post_init", "gradient_checkpointing_enable",
                     "set_input_embeddings", "set_output_embeddings", "add_tokens",
                     "add_special_tokens", "register_for_auto_class"});
}

std::string_view lastComponent(std::string_view path) {
  size_t dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

// Classes a FAST mediator may name as values (isinstance checks).
bool valueClass(std::string_view q) {
  return isOneOf(q, {"torch.Tensor", "torch.nn.Module", "torch.nn.Parameter", "torch.dtype",
                     "torch.device", "torch.Size", "numpy.ndarray", "numpy.generic",
                     "numpy.number", "numpy.integer", "numpy.floating"});
}

// Nothing when confirmed; otherwise the ISOLATE reason to report.
struct Problem {
  DiagId id;
  std::string a, b;
};

/// `call`: the call of the method, when it is called here (not handed on).
/// Whether the receiver of the method `call` calls may also be a container
/// the file made.
bool alsoContainer(RuleContext &ctx, const Op &call) {
  const Op *attr = call.operand(0);
  return attr && attr->is(OpKind::Attribute) &&
         llvm::any_of(ctx.valuesOf(attr->operand(0)),
                      [](const Value &v) { return v.kind == ValueKind::Container; });
}

/// Whether the receiver of the method `call` calls may also be a tensor
/// (`acts = torch.stack(acts)` after the list was filled).
bool alsoTensor(RuleContext &ctx, const Op &call) {
  const Op *attr = call.operand(0);
  return attr && attr->is(OpKind::Attribute) &&
         llvm::any_of(ctx.valuesOf(attr->operand(0)), [](const Value &v) {
           return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
         });
}

/// Whether a list, tuple, dict or set has an attribute of this name.
bool containerAttribute(std::string_view m) {
  return isOneOf(m, {"append", "extend", "insert", "remove", "pop", "clear", "index", "count",
                     "sort", "reverse", "copy", "keys", "values", "items", "get", "update",
                     "setdefault", "popitem", "fromkeys", "add", "discard", "union",
                     "intersection", "difference", "symmetric_difference", "issubset",
                     "issuperset", "isdisjoint", "intersection_update", "difference_update",
                     "symmetric_difference_update"});
}

/// `@functools.lru_cache(maxsize=128)`: the factory of a decorator the
/// statement rules allow, called where it decorates. The cache lives as long
/// as the mediator's definitions, within its memory budget.
bool cacheDecoratorFactory(RuleContext &ctx, const Op &call, std::string_view q) {
  if (q != "functools.lru_cache")
    return false;
  const Op *user = ctx.values.uses().userOf(&call);
  return user && user->is(OpKind::Decorator);
}

std::optional<Problem> judgeMethod(const Value &v, RuleContext &ctx, const Op *call = nullptr) {
  std::string_view m = v.text;
  const OpCatalog &cat = ctx.m.catalog;
  // nnsight's .save() works on any value and takes no arguments:
  // `x.save(path)` is some other save (torch's, numpy's, a model's).
  if (m == "save" && v.receiver != ValueKind::Qualified) {
    if (call && call->operands.size() > 1)
      return Problem{DiagId::UncataloguedCall, shortSource(ctx, *call->operand(0)), ""};
    return std::nullopt;
  }
  // `tracer.apply(fn, *args)` is `fn(*args)`, as nnsight.apply is: a
  // function of the file only (a helper's parameter may be the tracer).
  if (m == "apply" && (v.receiver == ValueKind::Tracer || v.receiver == ValueKind::Unknown) &&
      !(call && appliesFileFunction(ctx, *call)))
    return Problem{DiagId::UncataloguedCall,
                   call ? shortSource(ctx, *call->operand(0)) : "tracer.apply", ""};
  switch (v.receiver) {
  case ValueKind::Envoy:
    if (envoyMethod(m) || std::find(ctx.m.policy.traceMethods.begin(),
                                    ctx.m.policy.traceMethods.end(),
                                    m) != ctx.m.policy.traceMethods.end())
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall, "model." + std::string(m), ""};
  case ValueKind::Tracer:
    if (tracerMethod(m))
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall, "tracer." + std::string(m), ""};
  case ValueKind::Activation:
  case ValueKind::Tensor:
    if (m == "save" || cat.tensorMethod(m))
      return std::nullopt;
    // nnsight's `model.x.output.stop()`: tracer.stop(), as a runtime gives it.
    if (m == "stop" && v.receiver == ValueKind::Activation && call &&
        call->operands.size() == 1)
      return std::nullopt;
    // A list's or dict's method torch.Tensor does not have, on a name also
    // bound to a list (`hs.append(h)` before `hs = torch.stack(hs)`): on a
    // tensor it raises AttributeError before anything runs, and on the list
    // the container rules judge it. (Not on an activation, which may be the
    // model's own list or dict, nor on what is typed a tensor alone, which
    // may be a list a function returned: `np.split`.)
    if (v.receiver == ValueKind::Tensor && call && alsoContainer(ctx, *call) &&
        isOneOf(m, {"append", "extend", "insert", "update", "keys", "items", "setdefault",
                    "popitem", "pop", "remove", "clear", "get", "copy", "index", "count",
                    "reverse"}))
      return std::nullopt;
    if (cat.unsafeCategory("torch.Tensor." + std::string(m)))
      return std::nullopt; // reported at the attribute
    return Problem{DiagId::UncataloguedCall, "torch.Tensor." + std::string(m), ""};
  case ValueKind::Str:
    if (pureStrMethod(m))
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall, "str." + std::string(m), ""};
  case ValueKind::Container:
    if (pureContainerMethod(m))
      return std::nullopt;
    // The tensor's method of a name that may also be a tensor (`acts =
    // torch.stack(acts)`; `acts.mean(0)`): a container has no attribute of
    // that name, so on one it raises AttributeError before anything runs,
    // and on the tensor the tensor rules judge it.
    if (call && alsoTensor(ctx, *call) && cat.tensorMethod(m) && !containerAttribute(m))
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall, "<container>." + std::string(m), ""};
  case ValueKind::Number:
  case ValueKind::Bool:
    if (isOneOf(m, {"bit_length", "conjugate", "is_integer", "as_integer_ratio", "item"}))
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall, "<number>." + std::string(m), ""};
  default:
    // A value ivc cannot type (a parameter, a loop variable over unknown
    // data): every value a FAST mediator can hold is a tensor, number, string,
    // container or nnsight object, so a method any of those has is confirmed.
    if (cat.tensorMethod(m) || pureStrMethod(m) || pureContainerMethod(m) || envoyMethod(m) ||
        tracerMethod(m))
      return std::nullopt;
    return Problem{DiagId::UncataloguedCall,
                   v.op ? shortSource(ctx, *v.op) : "<value>." + std::string(m), ""};
  }
}

std::optional<Problem> judge(const Value &v, const Op &call, RuleContext &ctx) {
  const OpCatalog &cat = ctx.m.catalog;
  switch (v.kind) {
  case ValueKind::Builtin:
    if (ctx.m.policy.isProhibitedBuiltin(v.text) || pureBuiltin(v.text) || v.text == "open")
      return std::nullopt; // prohibited and file builtins are reported at the name
    return Problem{DiagId::UncataloguedCall, std::string(v.text), ""};
  case ValueKind::Qualified: {
    if (reportedReference(ctx, v.text) || cat.function(v.text) || pureStdlib(v.text) ||
        nnsightCall(ctx, v.text, call) || opensScopedMode(ctx, *call.operand(0), v.text) ||
        cacheDecoratorFactory(ctx, call, v.text))
      return std::nullopt;
    std::string_view q = v.text;
    if (q.substr(0, 13) == "torch.Tensor.") {
      Value m;
      m.kind = ValueKind::Method;
      m.receiver = ValueKind::Tensor;
      m.text = q.substr(13);
      return judgeMethod(m, ctx);
    }
    return Problem{DiagId::UncataloguedCall, std::string(q), ""};
  }
  case ValueKind::Envoy:
    if (moduleMethod(lastComponent(v.text)))
      return Problem{DiagId::UncataloguedCall, "model." + std::string(v.text), ""};
    return std::nullopt;
  case ValueKind::UserFunction:
    if (v.manifest && ctx.m.code.unreadable.contains(v.manifest))
      return Problem{DiagId::UnresolvedCall, quotedSource(ctx, *call.operand(0)), ""};
    return std::nullopt;
  case ValueKind::Lambda:
  case ValueKind::Tracer: // barrier = tracer.barrier(2); barrier()
    return std::nullopt;
  case ValueKind::UserClass:
    return Problem{DiagId::ClassDefinition, "instantiates", std::string(v.text)};
  case ValueKind::Method:
    return judgeMethod(v, ctx, &call);
  default:
    return Problem{DiagId::UnresolvedCall, quotedSource(ctx, *call.operand(0)), ""};
  }
}

/// A higher-order callee and the parameter it certainly calls (map's
/// function, sorted's key, ...): its position, or -1 when keyword-only.
struct CalledParameter {
  ValueKind kind;
  std::string_view callee;
  int position;
  std::string_view keyword;
};

constexpr CalledParameter CalledParameters[] = {
    {ValueKind::Builtin, "map", 0, "func"},
    {ValueKind::Qualified, "nnsight.apply", 0, "fn"},
    {ValueKind::Builtin, "filter", 0, "function"},
    {ValueKind::Builtin, "sorted", -1, "key"},
    {ValueKind::Builtin, "min", -1, "key"},
    {ValueKind::Builtin, "max", -1, "key"},
    {ValueKind::Qualified, "functools.reduce", 0, "function"},
    {ValueKind::Qualified, "functools.partial", 0, "func"},
    {ValueKind::Qualified, "itertools.starmap", 0, "function"},
    {ValueKind::Qualified, "itertools.filterfalse", 0, "function"},
    {ValueKind::Qualified, "itertools.takewhile", 0, "predicate"},
    {ValueKind::Qualified, "itertools.dropwhile", 0, "predicate"},
    {ValueKind::Qualified, "collections.defaultdict", 0, "default_factory"},
    {ValueKind::Qualified, "itertools.groupby", 1, "key"},
    {ValueKind::Qualified, "itertools.accumulate", 1, "func"},
    {ValueKind::Qualified, "einops.reduce", 2, "reduction"},
    {ValueKind::Method, "sort", -1, "key"},
};

const CalledParameter *calledParameter(const Value &callee) {
  for (const CalledParameter &p : CalledParameters)
    if (p.kind == callee.kind && p.callee == callee.text)
      return &p;
  return nullptr;
}

/// Whether a spread argument of `call` may supply the parameter `p`:
/// `map(*[f, xs])`, `sorted(xs, **{"key": f})`; not `map(f, *columns)`.
bool spreadsParameter(const Op &call, const CalledParameter &p) {
  int positional = 0;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (!a || a->is(OpKind::Keyword))
      continue;
    if (a->is(OpKind::KwSplat) || (a->is(OpKind::Starred) && positional <= p.position))
      return true;
    ++positional;
  }
  return false;
}

/// Whether `op` is a function made by a factory judged where it was called
/// (`operator.attrgetter("shape")`, `functools.partial(f, 2)`), directly
/// or through names bound once.
bool madeByJudgedFactory(RuleContext &ctx, const Op *op, int depth = 0) {
  if (!op || depth > 8)
    return false;
  if (op->is(OpKind::Name))
    return madeByJudgedFactory(ctx, onlyAssignedValue(ctx, op), depth + 1);
  if (!op->is(OpKind::Call))
    return false;
  const ValueSet &callee = ctx.valuesOf(op->operand(0));
  return !callee.empty() && llvm::all_of(callee, [](const Value &v) {
    return v.kind == ValueKind::Qualified &&
           isOneOf(v.text, {"operator.attrgetter", "operator.itemgetter", "operator.methodcaller",
                            "functools.partial"});
  });
}

/// A method of a value ivc cannot type is not judged where it is read, as it
/// may be data (`cfg.layer`); handed to a callee that calls it, it is a call,
/// and so is a value ivc cannot type at all (`map(a.real.tofile, paths)`,
/// `sorted(xs, key=max(fns))`), as calling it directly is.
void checkCalledArgument(const Op &call, const Value &callee, RuleContext &ctx) {
  const CalledParameter *p = calledParameter(callee);
  if (!p)
    return;
  if (spreadsParameter(call, *p)) {
    ctx.isolate(call, DiagId::UnconfirmedConstruct,
                {ctx.subject(), "a spread argument to '" + std::string(callee.text) +
                                    "' (ivc cannot see what it calls)"});
    return;
  }
  const Op *fn = p->position < 0 ? keywordArgument(call, p->keyword)
                                 : argument(call, size_t(p->position), p->keyword);
  if (!fn)
    return;
  const ValueSet &values = ctx.valuesOf(fn);
  auto report = [&](const std::string &what) {
    ctx.isolate(*fn, DiagId::UnconfirmedConstruct,
                {ctx.subject(), what + " as a value (what receives it calls it)"});
  };
  bool judged = madeByJudgedFactory(ctx, fn);
  if (values.empty() && !judged)
    return report(quotedSource(ctx, *fn));
  for (const Value &v : values) {
    if (v.kind == ValueKind::Unknown && !judged)
      return report(quotedSource(ctx, *fn));
    // A class FAST may name for isinstance is not one it may call:
    // `map(np.ndarray, shapes, dtypes, buffers)` builds arrays over raw memory.
    if (v.kind == ValueKind::Qualified && !reportedReference(ctx, v.text) &&
        !ctx.m.catalog.function(v.text) && !pureStdlib(v.text))
      return report("'" + std::string(v.text) + "'");
    if (v.kind != ValueKind::Method || v.receiver != ValueKind::Unknown)
      continue; // judged by checkEscapingReference
    if (std::optional<Problem> p = judgeMethod(v, ctx))
      return report("'" + p->a + "'");
  }
}

/// print(..., file=f) calls f.write, whatever f is.
bool printsToFile(const Op &call, const Value &callee) {
  if (callee.kind != ValueKind::Builtin || callee.text != "print")
    return false;
  for (size_t i = 1; i < call.operands.size(); ++i)
    if (const Op *a = call.operand(i);
        a && (a->is(OpKind::KwSplat) || (a->is(OpKind::Keyword) && a->text == "file")))
      return true;
  return false;
}

} // namespace

bool confirmedValue(RuleContext &ctx, std::string_view q) {
  const OpCatalog &cat = ctx.m.catalog;
  return cat.function(q) || cat.isConstant(q) || pureStdlib(q) || valueClass(q);
}

bool confirmedMethodName(std::string_view m, const OpCatalog &catalog) {
  return catalog.tensorMethod(m) || pureStrMethod(m) || pureContainerMethod(m);
}

void checkEscapingReference(Op &op, RuleContext &ctx) {
  if (!ctx.passed.contains(&op))
    return;
  const std::string_view asValue = " as a value (what receives it may call it)";
  for (const Value &v : ctx.valuesOf(&op)) {
    if (checkDivisionReference(op, v, ctx) || checkUnsafeArgumentsReference(op, v, ctx))
      return;
    std::optional<std::string> what; // set when the value is not confirmed
    switch (v.kind) {
    case ValueKind::Builtin:
      if (ctx.m.policy.isProhibitedBuiltin(v.text) || v.text == "open")
        break; // reported at the name
      if (isOneOf(v.text, {"getattr", "setattr", "delattr", "hasattr"})) {
        ctx.reject(op, DiagId::DynamicAttribute,
                   {ctx.subject(), v.text, "a name known only where it is called, as a value"});
        return;
      }
      if (!pureBuiltin(v.text) || v.text == "iter") // iter(f, sentinel) may never end
        what = v.text;
      break;
    case ValueKind::Qualified: {
      const OpCatalog &cat = ctx.m.catalog;
      std::string_view q = v.text;
      // A getter factory is judged by the names it is given where it is
      // called: handed on, it gets them from where ivc does not look.
      bool factory = isOneOf(q, {"operator.attrgetter", "operator.itemgetter",
                                 "operator.methodcaller"});
      if (factory || (!reportedReference(ctx, q) && !cat.function(q) && !cat.isConstant(q) &&
                      !cat.isModule(q) && !pureStdlib(q) && !valueClass(q)))
        what = q;
      break;
    }
    case ValueKind::Method:
      // An attribute of a value ivc cannot type is data as often as a method
      // (`cfg.layer`); what made the value was judged where it was made.
      if (v.receiver == ValueKind::Unknown ||
          ((v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation) &&
           ctx.m.catalog.isTensorAttribute(v.text)))
        break;
      if (v.receiver == ValueKind::Builtin && isOneOf(v.text, {"format", "format_map"})) {
        ctx.reject(op, DiagId::FormatEscape,
                   {ctx.subject(), "str." + std::string(v.text) + " as a value",
                    "its format string is only known where it is called, and can reach "
                    "private attributes"});
        return;
      }
      if (auto p = judgeMethod(v, ctx))
        what = p->a;
      break;
    case ValueKind::Envoy:
      if (moduleMethod(lastComponent(v.text)))
        what = "model." + std::string(v.text);
      break;
    default:
      break;
    }
    if (what) {
      ctx.isolate(op, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "'" + *what + "'" + std::string(asValue)});
      return;
    }
  }
}

void checkCall(Op &op, RuleContext &ctx) {
  const Op *callee = op.operand(0);
  if (!callee || (callee->is(OpKind::Attribute) && rejectedAttributeName(callee->text) &&
                  !isItemAccessor(ctx, *callee)))
    return; // rejected at the attribute already
  std::optional<Problem> first;
  // A free name the caller supplies holds a value of the closed codec, data
  // or a barrier (a runtime refuses a module for it): calling it runs no
  // code but a barrier's. What the file binds it to is still judged, and is
  // unresolved when ivc knows nothing of it (`probe = torch.nn.Linear(...)`
  // cannot be sent).
  const ValueSet &callees = ctx.valuesOf(callee);
  bool suppliedByCaller =
      callee->is(OpKind::Name) && ctx.values.fromCaller(callee) &&
      llvm::any_of(callees, [](const Value &v) { return v.kind != ValueKind::Unknown; });
  for (const Value &v : callees) {
    if (suppliedByCaller && v.kind == ValueKind::Unknown)
      continue;
    if (checkDynamicLookup(op, v, ctx) || checkFormatting(op, v, ctx))
      continue;
    // iter(callable, sentinel) calls until the sentinel comes, maybe never.
    if (v.kind == ValueKind::Builtin && v.text == "iter" && op.operands.size() > 2) {
      ctx.isolate(op, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "'iter' with a sentinel (a loop with no bound)"});
      continue;
    }
    if (printsToFile(op, v)) {
      ctx.isolate(op, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "'print' with a file (it calls the file's write method)"});
      continue;
    }
    checkCalledArgument(op, v, ctx);
    checkUnsafeArguments(op, v, ctx);
    checkDivisionCall(op, v, ctx);
    if (auto p = judge(v, op, ctx); p && !first)
      first = std::move(p);
  }
  if (!first)
    return;
  if (first->id == DiagId::ClassDefinition)
    ctx.isolate(op, first->id, {ctx.subject(), first->a, first->b});
  else
    ctx.isolate(op, first->id, {ctx.subject(), first->a});
}

} // namespace ivc::rules
