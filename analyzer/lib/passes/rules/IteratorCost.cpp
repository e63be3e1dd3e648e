//===- IteratorCost.cpp - itertools' combinatorics (IVC312) --------------===//
//
// itertools.product, permutations, combinations and
// combinations_with_replacement copy their inputs into tuples when called,
// then make every combination: `product('ab', repeat=64)` makes 2^64 tuples.
// A for loop over one is Python's, which the budget stops; one call that
// consumes it (`max`, `sorted`, `list`, `x in ...`) runs in C to the end.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// log(n choose k).
double logChoose(double n, double k) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

} // namespace

bool isCombinatoric(const Value &v) {
  return v.kind == ValueKind::Qualified &&
         isOneOf(v.text, {"itertools.product", "itertools.permutations", "itertools.combinations",
                          "itertools.combinations_with_replacement"});
}

std::optional<double> combinatoricCount(RuleContext &ctx, const Op &call, std::string_view f) {
  if (f == "itertools.product") {
    double n = 1;
    for (const Op *a : positionalArguments(call)) {
      std::optional<double> k = iterableLength(ctx, a);
      if (!k)
        return std::nullopt;
      n *= *k;
    }
    const Op *repeat = keywordArgument(call, "repeat");
    Magnitude r = repeat ? Sizer(ctx).of(repeat) : Magnitude::integer(1);
    if (!r.value)
      return std::nullopt;
    return std::pow(n, double(std::max<int64_t>(*r.value, 0)));
  }
  std::optional<double> n = iterableLength(ctx, argument(call, 0, "iterable"));
  const Op *rOp = argument(call, 1, "r");
  Magnitude r = rOp ? Sizer(ctx).of(rOp) : Magnitude{};
  if (!n || (rOp && !r.value) || (!rOp && f != "itertools.permutations"))
    return std::nullopt;
  double k = rOp ? double(*r.value) : *n;
  if (k < 0)
    return 0.0;
  if (f == "itertools.combinations_with_replacement")
    return *n == 0 ? (k == 0 ? 1.0 : 0.0) : std::exp(logChoose(*n + k - 1, k));
  if (k > *n)
    return 0.0;
  if (f == "itertools.permutations")
    return std::exp(std::lgamma(*n + 1) - std::lgamma(*n - k + 1));
  return std::exp(logChoose(*n, k));
}

} // namespace ivc::rules::cost
