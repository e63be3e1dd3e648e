//===- DtypeCost.cpp - numpy dtypes that hide sizes or objects (IVC312) ---===//
//
// A numpy dtype may carry a size of its own: a subarray
// (`dtype=(np.float64, 2**9)` makes each element 2^9 floats), a flexible
// type of a given length (`'U2000000000'` is 8 GB per element), or a record
// of either. `object` makes an array of Python objects, whose arithmetic
// is Python's, element by element, in one call (`** 2**30` on big ints
// never ends). `str` and an unsized `'U'` take their length from the data.
// The factory rules size shapes with a scalar dtype's width only, so a FAST
// mediator may name a numpy dtype only as a numeric type (`np.float32`,
// `torch.int64`, `float`) or as a short name (`'f4'`, `'<U16'`).
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include <cctype>

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// A dtype string of a scalar type, a flexible one at most 99 long included:
/// an optional byte order, letters, at most two digits; not an object, and
/// not a flexible type without a length (numpy sizes it from the data:
/// `np.array(np.ones(n), dtype='U')` is 128 bytes an element).
bool simpleDtypeName(std::string_view s) {
  if (!s.empty() && isOneOf(s.substr(0, 1), {"<", ">", "=", "|"}))
    s.remove_prefix(1);
  size_t letters = 0;
  while (letters < s.size() && std::isalpha(static_cast<unsigned char>(s[letters])))
    ++letters;
  std::string_view name = s.substr(0, letters), digits = s.substr(letters);
  bool flexible = isOneOf(name, {"U", "S", "a", "str", "str_", "unicode", "unicode_", "bytes",
                                 "bytes_", "string_"});
  return letters > 0 && digits.size() <= 2 && (!flexible || !digits.empty()) &&
         llvm::all_of(digits, [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) &&
         !isOneOf(name, {"O", "object", "object_", "V", "void"});
}

bool simpleDtype(RuleContext &ctx, const Op *dtype) {
  if (!dtype || dtype->is(OpKind::None))
    return true;
  if (std::optional<std::string_view> s = knownString(ctx, dtype))
    return simpleDtypeName(*s);
  const ValueSet &vs = ctx.valuesOf(dtype);
  return !vs.empty() && llvm::all_of(vs, [](const Value &v) {
    if (v.kind == ValueKind::Builtin) // str and bytes: sized from the data
      return isOneOf(v.text, {"float", "int", "bool", "complex"});
    return v.kind == ValueKind::Qualified &&
           (v.text.starts_with("torch.") || v.text.starts_with("numpy.")) &&
           !isOneOf(v.text, {"numpy.object_", "numpy.void", "numpy.dtype", "numpy.record",
                             "numpy.str_", "numpy.bytes_", "numpy.unicode_", "numpy.string_"});
  });
}

/// Where a numpy function or array method takes its dtype by position.
std::optional<size_t> dtypePosition(std::string_view f) {
  if (isOneOf(f, {"numpy.zeros", "numpy.ones", "numpy.empty", "numpy.array", "numpy.asarray",
                  "numpy.asanyarray", "numpy.ascontiguousarray", "numpy.fromiter", "numpy.frombuffer",
                  "numpy.identity", "astype", "numpy.dtype"}))
    return f == "astype" || f == "numpy.dtype" ? 0 : 1;
  if (isOneOf(f, {"numpy.full", "numpy.eye"}))
    return f == "numpy.full" ? 2 : 3;
  return std::nullopt;
}

} // namespace

std::optional<std::string> dtypeCost(RuleContext &ctx, const Op &call, const Value &callee) {
  bool numpy = callee.kind == ValueKind::Qualified && callee.text.starts_with("numpy.");
  bool astype = callee.kind == ValueKind::Method && callee.text == "astype";
  if (!numpy && !astype)
    return std::nullopt;
  const Op *dtype = keywordArgument(call, "dtype");
  if (!dtype)
    if (std::optional<size_t> i = dtypePosition(astype ? "astype" : callee.text))
      dtype = positionalArgument(call, *i);
  if (simpleDtype(ctx, dtype))
    return std::nullopt;
  return "gives numpy a dtype ivc cannot size (a subarray, a long flexible type or objects)";
}

} // namespace ivc::rules::cost
