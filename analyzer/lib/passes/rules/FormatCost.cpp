//===- FormatCost.cpp - Format widths and precisions (IVC312) -------------===//
//
// `'%*d' % (10**10, x)` or `f"{x:>{10**10}}"` fills gigabytes in one call.
// A width or precision is judged where ivc can see it: written in a format
// text or spec, or passed to a format that takes one from its arguments.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"

#include <cctype>

namespace ivc::rules::cost {

using namespace ir;

namespace {

/// Whether `op` may be an integer beyond the fill limit: a width or
/// precision given as a value (`'{:>{}}'.format('', 10**10)`).
bool wideNumber(RuleContext &ctx, const Op *op) {
  if (chosenByInputs(ctx, op))
    return true;
  Magnitude m = Sizer(ctx).of(op);
  return m.kind == Magnitude::Int && (m.value ? double(*m.value) > MaxFilledBytes : m.bits > 28);
}

/// Whether a `str.format` string nests a field in another's spec
/// (`{:>{}}`): a width or precision taken from the arguments.
bool nestsFields(std::string_view text) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '{') {
      if (depth == 0 && i + 1 < text.size() && text[i + 1] == '{') {
        ++i; // an escaped brace
        continue;
      }
      if (++depth > 1)
        return true;
    } else if (text[i] == '}' && depth > 0) {
      --depth;
    }
  }
  return false;
}

/// A width or precision beyond the fill limit written in a format string or
/// spec (`'%.2000000000f'`, `f'{x:>2000000000}'`).
bool hasWideField(std::string_view text) {
  double run = 0;
  for (char c : text) {
    run = std::isdigit(static_cast<unsigned char>(c)) ? run * 10 + (c - '0') : 0;
    if (run > MaxFilledBytes)
      return true;
  }
  return false;
}

/// An f-string field's spec: its text and the values nested in it.
bool wideSpec(RuleContext &ctx, const Op *spec) {
  if (!spec)
    return false;
  for (const Op *part : spec->operands) {
    if (part && part->is(OpKind::Str) && hasWideField(part->text))
      return true;
    if (part && part->is(OpKind::FormatValue) && wideNumber(ctx, part->operand(0)))
      return true;
    // A nested spec given as text spells its width (`f"{x:.{'2' + '0' * 9}f}"`);
    // text ivc does not know may spell any, unless it has 8 characters at most.
    if (part && part->is(OpKind::FormatValue) && isSequence(ctx, part->operand(0))) {
      if (std::optional<std::string_view> known = knownString(ctx, part->operand(0))) {
        if (hasWideField(*known))
          return true;
        continue;
      }
      std::optional<double> n = textLength(ctx, part->operand(0));
      if (!n || *n > 8)
        return true;
    }
  }
  return false;
}

/// A number beyond the fill limit anywhere in `op` (`'>' + str(2**34)`).
bool holdsWideNumber(RuleContext &ctx, const Op *op, int &budget) {
  if (!op || --budget < 0)
    return false;
  // A wide number may come as digits (`"%.2f".replace("2", "2000000000")`).
  if ((op->is(OpKind::Str) && hasWideField(op->text)))
    return true;
  return wideNumber(ctx, op) ||
         llvm::any_of(op->operands, [&](const Op *o) { return holdsWideNumber(ctx, o, budget); });
}

/// `fmt % args` and `fmt.format(*args)`: widths and precisions written in
/// the format or taken from the arguments (`%*d`, `{:>{}}`): then an
/// argument ivc sizes beyond the limit may be one.
bool wideFormat(RuleContext &ctx, const Op *format, const std::vector<const Op *> &args,
                bool percent) {
  std::optional<std::string_view> text = knownString(ctx, format);
  if (text && hasWideField(*text))
    return true;
  int budget = 32; // a format built at run time: from a wide or chosen number, say
  if (!text && holdsWideNumber(ctx, format, budget))
    return true;
  bool takesWidths =
      !text || (percent ? text->find('*') != std::string_view::npos : nestsFields(*text));
  return takesWidths && llvm::any_of(args, [&](const Op *a) { return wideNumber(ctx, a); });
}

/// What `fmt.format(...)` or `fmt.format_map(...)` may take a width from:
/// positional and keyword values, and the items of spread or mapped displays.
std::vector<const Op *> formatArguments(const Op &call) {
  std::vector<const Op *> args;
  for (size_t i = 1; i < call.operands.size(); ++i) {
    const Op *a = call.operand(i);
    if (a && (a->is(OpKind::Keyword) || a->is(OpKind::Starred) || a->is(OpKind::KwSplat)))
      a = a->operand(0);
    if (a && (a->is(OpKind::Dict) || a->is(OpKind::List) || a->is(OpKind::Tuple)))
      args.insert(args.end(), a->operands.begin(), a->operands.end());
    else
      args.push_back(a);
  }
  return args;
}

/// The arguments after `fmt %`: a tuple display's items, or the one value.
std::vector<const Op *> percentArguments(const Op *rhs) {
  if (rhs && rhs->is(OpKind::Tuple))
    return {rhs->operands.begin(), rhs->operands.end()};
  return {rhs};
}

} // namespace

std::optional<std::string> formatCost(RuleContext &ctx, const Op &op) {
  bool wide = false;
  if (op.is(OpKind::FormatValue))
    wide = wideSpec(ctx, op.operand(1));
  else if (op.is(OpKind::BinaryOp) && op.text == "%")
    wide = wideFormat(ctx, op.operand(0), percentArguments(op.operand(1)), /*percent=*/true);
  else if (op.is(OpKind::Call))
    for (const Value &v : ctx.valuesOf(op.operand(0))) {
      const Op *attr = op.operand(0);
      if (v.kind == ValueKind::Method && isOneOf(v.text, {"format", "format_map"}) &&
          attr->is(OpKind::Attribute))
        wide |= wideFormat(ctx, attr->operand(0), formatArguments(op), /*percent=*/false);
      if (v.kind == ValueKind::Builtin && v.text == "format") {
        const Op *specOp = argument(op, 1, "format_spec");
        int budget = 32;
        if (std::optional<std::string_view> spec = knownString(ctx, specOp))
          wide |= hasWideField(*spec);
        else // built at run time: from a number beyond the limit, say
          wide |= holdsWideNumber(ctx, specOp, budget);
      }
    }
  // `("%s" * 2**19) % tuple(parts)` writes out every part, as `f"{xs}"` and
  // `format(xs)` write out xs.
  if (!wide && op.is(OpKind::BinaryOp) && op.text == "%")
    if (std::optional<std::string> why = writtenOut(ctx, op.operand(1)))
      return why;
  if (!wide && op.is(OpKind::FormatValue))
    if (std::optional<std::string> why = writtenOut(ctx, op.operand(0)))
      return why;
  if (!wide && op.is(OpKind::Call) &&
      llvm::any_of(ctx.valuesOf(op.operand(0)), [](const Value &v) {
        return v.kind == ValueKind::Builtin && v.text == "format";
      }))
    if (std::optional<std::string> why = writtenOut(ctx, positionalArgument(op, 0)))
      return why;
  if (!wide)
    return std::nullopt;
  return "formats a field of a width or precision beyond 2^28 or that the inputs choose";
}

} // namespace ivc::rules::cost
