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
                     "collections.OrderedDict", "collections.Counter", "collections.deque"});
}

bool pureStrMethod(std::string_view m) {
  return isOneOf(m, {"capitalize", "casefold", "center", "count", "encode", "endswith",
                     "expandtabs", "find", "index", "isalnum", "isalpha", "isascii", "isdecimal",
                     "isdigit", "isidentifier", "islower", "isnumeric", "isprintable", "isspace",
                     "istitle", "isupper", "join", "ljust", "lower", "lstrip", "partition",
                     "removeprefix", "removesuffix", "replace", "rfind", "rindex", "rjust",
                     "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith",
                     "strip", "swapcase", "title", "upper", "zfill", "decode"});
}

bool pureContainerMethod(std::string_view m) {
  return isOneOf(m, {"append", "clear", "copy", "count", "extend", "index", "insert", "pop",
                     "remove", "reverse", "sort", "get", "items", "keys", "values", "setdefault",
                     "update", "popitem", "add", "discard", "difference", "intersection",
                     "union", "symmetric_difference", "issubset", "issuperset", "isdisjoint",
                     "difference_update", "intersection_update", "symmetric_difference_update",
                     "most_common", "appendleft", "popleft", "extendleft"});
}

bool envoyMethod(std::string_view m) {
  return isOneOf(m, {"save", "skip", "next", "all", "parameters", "named_parameters"});
}

bool tracerMethod(std::string_view m) {
  return isOneOf(m, {"invoke", "iter", "all", "barrier", "cache", "stop", "apply", "log", "next"});
}

std::string describe(RuleContext &ctx, const Op &callee) {
  std::string text(ctx.m.fileOf(ctx.unit).slice(callee.range));
  if (text.size() > 40)
    text = text.substr(0, 37) + "...";
  return "'" + text + "'";
}

// Nothing when confirmed; otherwise the ISOLATE reason to report.
struct Problem {
  DiagId id;
  std::string a, b;
};

std::optional<Problem> judgeMethod(const Value &v, RuleContext &ctx) {
  std::string_view m = v.text;
  const OpCatalog &cat = ctx.m.catalog;
  if (m == "save" && v.receiver != ValueKind::Qualified)
    return std::nullopt; // nnsight's .save() works on any value
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
    return Problem{DiagId::UncataloguedCall, "<value>." + std::string(m), ""};
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
    if (reportedReference(ctx, v.text) || cat.function(v.text) || pureStdlib(v.text))
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
  case ValueKind::UserFunction:
  case ValueKind::Lambda:
  case ValueKind::Envoy:
  case ValueKind::Tracer: // barrier = tracer.barrier(2); barrier()
    return std::nullopt;
  case ValueKind::UserClass:
    return Problem{DiagId::ClassDefinition, "instantiates", std::string(v.text)};
  case ValueKind::Method:
    return judgeMethod(v, ctx);
  default:
    return Problem{DiagId::UnresolvedCall, describe(ctx, *call.operand(0)), ""};
  }
}

} // namespace

void checkCall(Op &op, RuleContext &ctx) {
  const Op *callee = op.operand(0);
  if (!callee || (callee->is(OpKind::Attribute) && rejectedAttributeName(callee->text)))
    return; // rejected at the attribute already
  std::optional<Problem> first;
  for (const Value &v : ctx.valuesOf(callee)) {
    if (checkDynamicLookup(op, v, ctx) || checkFormatting(op, v, ctx))
      continue;
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
