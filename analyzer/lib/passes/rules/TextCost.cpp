//===- TextCost.cpp - String methods that grow or split text (IVC312) ----===//
//
// One string method call makes its whole result in C: `''.join(parts)`
// the sum of the parts, `s.replace(a, b)` up to len(s) / len(a) copies of b,
// `s.expandtabs(n)` up to n characters per tab, `s.split()` and `list(s)` up
// to one string object (some 50 bytes) per character. Beyond 256 MiB of text,
// or 2^24 strings, is ISOLATE, when ivc sizes the operands.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

namespace ivc::rules::cost {

using namespace ir;

namespace {


std::optional<std::string> tooMuchText(double n) {
  if (n > MaxFilledBytes)
    return "makes a string of " + countText(n) + " characters or bytes";
  return std::nullopt;
}

std::optional<std::string> tooManyStrings(double n) {
  if (n > double(MaxElements))
    return "splits a text into up to " + countText(n) + " strings";
  return std::nullopt;
}

/// Why `replace` or `expandtabs` of a text ivc cannot size may grow it
/// beyond what the caller's largest string (64 MiB) may be repeated
/// unreported (MaxBlindSequenceRepetitions times), if it may:
/// `s.replace("a", "a" * 2**20)` of a caller's 4 KiB made 4 GiB.
std::optional<std::string> growthOfUnsized(RuleContext &ctx, const Op &call, std::string_view m) {
  std::optional<double> factor;
  if (m == "replace") {
    std::optional<double> old = textLength(ctx, argument(call, 0, "old"));
    std::optional<double> now = textLength(ctx, argument(call, 1, "new"));
    if (old && now)
      factor = *now / std::max(*old, 1.0);
  } else if (m == "expandtabs") {
    const Op *tab = argument(call, 0, "tabsize");
    Magnitude n = tab ? Sizer(ctx).of(tab) : Magnitude::integer(8);
    if (n.value)
      factor = double(*n.value);
  } else {
    return std::nullopt;
  }
  if (factor && *factor <= double(MaxBlindSequenceRepetitions))
    return std::nullopt;
  return "may grow a text ivc cannot size " +
         (factor ? countText(*factor) + "-fold" : std::string("by a factor it cannot bound"));
}

std::optional<std::string> methodCost(RuleContext &ctx, const Op &call, std::string_view m,
                                      const Op *receiver) {
  std::optional<double> text = textLength(ctx, receiver);
  if (m == "join") { // a text joined is its characters, each a part
    std::optional<Extent> parts = ExtentOf(ctx).of(argument(call, 0, "iterable"));
    if (text && parts)
      return tooMuchText((parts->text ? parts->length : parts->chars) + parts->length * *text);
    return std::nullopt;
  }
  if (!text)
    return growthOfUnsized(ctx, call, m);
  if (m == "replace") {
    std::optional<double> old = textLength(ctx, argument(call, 0, "old"));
    std::optional<double> now = textLength(ctx, argument(call, 1, "new"));
    if (!old || !now)
      return std::nullopt;
    double copies = *old == 0 ? *text + 1 : std::floor(*text / *old);
    return tooMuchText(*text + copies * std::max(*now - *old, 0.0));
  }
  if (m == "expandtabs") {
    const Op *tab = argument(call, 0, "tabsize");
    Magnitude n = tab ? Sizer(ctx).of(tab) : Magnitude::integer(8);
    return n.value ? tooMuchText(*text * double(std::max<int64_t>(*n.value, 1))) : std::nullopt;
  }
  if (isOneOf(m, {"split", "rsplit", "splitlines"}))
    return tooManyStrings(*text);
  return std::nullopt;
}

} // namespace

std::optional<std::string> textCallCost(RuleContext &ctx, const Op &call, const Value &callee) {
  // str and bytes receivers (ivc types bytes as nothing in particular; the
  // receiver's extent says it is text).
  const Op *attr = call.operand(0);
  if (callee.kind == ValueKind::Method &&
      (callee.receiver == ValueKind::Str || callee.receiver == ValueKind::Unknown) && attr &&
      attr->is(OpKind::Attribute))
    return methodCost(ctx, call, callee.text, attr->operand(0));
  if (callee.kind == ValueKind::Builtin && isOneOf(callee.text, {"list", "tuple", "set", "sorted"}))
    if (std::optional<double> text = textLength(ctx, positionalArgument(call, 0)))
      return tooManyStrings(*text);
  return std::nullopt;
}

} // namespace ivc::rules::cost
