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

/// Whether `op` writes out a number ivc sizes (`str(i)`, `repr(x.item())`):
/// a short text.
bool writesNumber(RuleContext &ctx, const Op *op) {
  if (!op || !op->is(OpKind::Call) || op->operands.size() != 2)
    return false;
  bool writer = llvm::any_of(ctx.valuesOf(op->operand(0)), [](const Value &v) {
    return v.kind == ValueKind::Builtin && isOneOf(v.text, {"str", "repr", "hex", "bin", "oct"});
  });
  Magnitude m = Sizer(ctx).of(op->operand(1));
  const ValueSet &vs = ctx.valuesOf(op->operand(1));
  bool number = (m.kind == Magnitude::Int && m.bits <= 64) || m.kind == Magnitude::Float ||
                (!vs.empty() && llvm::all_of(vs, [](const Value &v) {
                  return v.kind == ValueKind::Number || v.kind == ValueKind::Bool;
                }));
  return writer && number;
}

/// Why a text made of the items of `seq` (joined, or written out by
/// `str`) may copy a text ivc cannot size more than 16 times (what the
/// caller's largest, 64 MiB, may be repeated unreported), if it may:
/// `''.join([s] * 1024)` of a caller's 2 MiB made 2 GiB.
std::optional<std::string> copiesUnsizedItems(RuleContext &ctx, const Op *seq) {
  std::optional<Extent> e = ExtentOf(ctx).of(seq);
  const Op *items = valueBehindNames(ctx, seq);
  if (items && items->is(OpKind::BinaryOp) && items->text == "*") // `[s] * n`
    for (const Op *side : items->operands)
      if (side && (side->is(OpKind::List) || side->is(OpKind::Tuple)))
        items = side;
  if (!e || !items || e->length <= double(MaxBlindSequenceRepetitions))
    return std::nullopt;
  std::vector<const Op *> each; // a display's items, a comprehension's element
  if (items->is(OpKind::List) || items->is(OpKind::Tuple))
    each.assign(items->operands.begin(), items->operands.end());
  else if (items->is(OpKind::ListComp))
    for (const Region &r : items->regions)
      for (const Op *c : r.ops)
        if (c->is(OpKind::CompYield))
          each.push_back(c->operand(0));
  // (A formatted item, `f"{v:.2f}"`, is as long as its fields, judged
  // where they are.)
  bool unsized = llvm::any_of(each, [&](const Op *item) {
    return item && !item->is(OpKind::FString) && !writesNumber(ctx, item) &&
           !textLength(ctx, item) && !ExtentOf(ctx).of(item) && maySequence(ctx, item);
  });
  if (!unsized)
    return std::nullopt;
  return "copies a text ivc cannot size " + countText(e->length) + " times";
}

/// Why writing `op` out as text (str does) costs too much, if it does.
std::optional<std::string> writtenAsText(RuleContext &ctx, const Op *op) {
  if (std::optional<std::string> why = writtenOut(ctx, op))
    return why;
  return copiesUnsizedItems(ctx, op);
}

} // namespace

/// Why `str`, `repr` or `%` of a sequence ivc sizes costs too much in one
/// call, if it does: the characters it writes (its strings', and for every
/// item it reaches a separator and quotes, or a number's digits, 24 at
/// most), and the items it formats, a `tolist()`'s numbers included.
std::optional<std::string> writtenOut(RuleContext &ctx, const Op *seq) {
  // A copy (`tuple(parts)`) writes what it copies.
  if (seq && seq->is(OpKind::Call) && seq->operands.size() == 2 &&
      llvm::all_of(ctx.valuesOf(seq->operand(0)), [](const Value &v) {
        return v.kind == ValueKind::Builtin && isOneOf(v.text, {"tuple", "list"});
      }))
    seq = seq->operand(1);
  double chars = 0, items = 0;
  if (std::optional<double> numbers = seq ? listedNumbers(ctx, seq) : std::nullopt) {
    items = *numbers;
  } else if (std::optional<Extent> e = seq ? ExtentOf(ctx).of(seq) : std::nullopt;
             e && !e->text) {
    chars = e->chars;
    items = std::max(e->length, e->reach);
  } else {
    return std::nullopt;
  }
  if (std::optional<std::string> why = tooMuchText(chars + items * 24))
    return why;
  // Each item is formatted in C: a float's repr about 200 ns.
  if (items > double(MaxWrittenItems))
    return "writes out " + countText(items) + " items in one call";
  return std::nullopt;
}

namespace {

std::optional<std::string> methodCost(RuleContext &ctx, const Op &call, std::string_view m,
                                      const Op *receiver) {
  std::optional<double> text = textLength(ctx, receiver);
  if (m == "join") { // a text joined is its characters, each a part
    const Op *iterable = argument(call, 0, "iterable");
    // (`sep.join(map(str, xs))` writes out every item of xs in C, as
    // str(xs) does: judged at the map.)
    std::optional<Extent> parts = ExtentOf(ctx).of(iterable);
    if (std::optional<std::string> why = copiesUnsizedItems(ctx, iterable))
      return why;
    if (text && parts)
      return tooMuchText((parts->text ? parts->length : parts->chars) + parts->length * *text);
    // A separator ivc cannot size between parts it cannot count: `s.join(s)`
    // of a caller's 64 KiB made 4 GiB.
    if (!text && !parts && maySequence(ctx, receiver) && maySequence(ctx, iterable))
      return std::string("joins parts ivc cannot count with a separator it cannot size");
    return std::nullopt;
  }
  if (isOneOf(m, {"format", "format_map"})) // `"{}".format(xs)` writes out xs (`*xs` too)
    for (const Op *a : argumentValues(call))
      if (std::optional<std::string> why = writtenAsText(ctx, a))
        return why;
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

namespace {

bool isBuiltin(RuleContext &ctx, const Op *op, std::initializer_list<std::string_view> names) {
  const ValueSet &vs = ctx.valuesOf(op);
  return !vs.empty() && llvm::all_of(vs, [&](const Value &v) {
    return v.kind == ValueKind::Builtin && isOneOf(v.text, names);
  });
}

/// Builtin exception classes: a runtime writes out their arguments when it
/// reports one (`raise ValueError(xs)`), and so does str of one.
bool isBuiltinException(std::string_view name) {
  return name.ends_with("Error") || name.ends_with("Exception") || name.ends_with("Warning") ||
         isOneOf(name, {"StopIteration", "KeyboardInterrupt", "SystemExit", "GeneratorExit"});
}

/// The arguments `call` writes out as text in one call, whatever its
/// spelling: print's and log's, a builtin exception's, the items a sort
/// key of str or repr formats, what `map(str, xs)` formats.
std::vector<const Op *> formattedArguments(RuleContext &ctx, const Op &call, const Value &callee) {
  std::vector<const Op *> out;
  bool log = (callee.kind == ValueKind::Qualified && callee.text == "nnsight.log") ||
             (callee.kind == ValueKind::Method && callee.text == "log" &&
              callee.receiver == ValueKind::Tracer);
  // `str.format("{}", xs)`, the method taken from the class.
  bool format = callee.kind == ValueKind::Method && callee.receiver == ValueKind::Builtin &&
                isOneOf(callee.text, {"format", "format_map"});
  if ((callee.kind == ValueKind::Builtin &&
       (callee.text == "print" || isBuiltinException(callee.text))) || log || format)
    out = argumentValues(call); // what `*xs` and `**d` spread too
  else if (callee.kind == ValueKind::Builtin && callee.text == "map" &&
           isBuiltin(ctx, call.operand(1), {"str", "repr", "ascii", "format"}))
    out.push_back(call.operand(2));
  if (const Op *key = keywordArgument(call, "key");
      key && isBuiltin(ctx, key, {"str", "repr", "ascii", "format"})) {
    const Op *callee = call.operand(0);
    out.push_back(callee && callee->is(OpKind::Attribute) && callee->text == "sort"
                      ? callee->operand(0) // `xs.sort(key=str)`
                      : positionalArgument(call, 0));
  }
  return out;
}

} // namespace

std::optional<std::string> textCallCost(RuleContext &ctx, const Op &call, const Value &callee) {
  for (const Op *arg : formattedArguments(ctx, call, callee))
    if (std::optional<std::string> why = arg ? writtenAsText(ctx, arg) : std::nullopt)
      return why;
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
  if (callee.kind == ValueKind::Builtin && isOneOf(callee.text, {"str", "repr", "ascii"})) {
    if (std::optional<std::string> why = writtenOut(ctx, positionalArgument(call, 0)))
      return why;
    return copiesUnsizedItems(ctx, positionalArgument(call, 0));
  }
  return std::nullopt;
}

} // namespace ivc::rules::cost
