//===- Formatting.cpp - Format strings that read attributes ---------------===//
//
// str.format and format_map resolve `{0.attr}` and `{0[key]}` in the format
// string at run time, so `'{0.__class__}'.format(x)` reads a dunder attribute
// without any attribute op in the code. A known format string is parsed and
// its fields checked; a format string assembled at run time could reach
// anything and is rejected (an f-string says the same thing visibly).
// string.Formatter exposes the same machinery (get_field) and is rejected.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

// The first problem in a format string's replacement fields, if any.
std::optional<std::string> fieldProblem(std::string_view fmt, int depth = 0) {
  for (size_t i = 0; i < fmt.size(); ++i) {
    char c = fmt[i];
    if ((c == '{' || c == '}') && i + 1 < fmt.size() && fmt[i + 1] == c) {
      ++i;
      continue;
    }
    if (c != '{')
      continue;
    // Find the matching '}', allowing one level of nested fields in the spec.
    size_t j = i + 1;
    int nest = 1;
    for (; j < fmt.size() && nest; ++j) {
      if (fmt[j] == '[') { // element index: anything up to ']'
        size_t close = fmt.find(']', j);
        if (close == std::string_view::npos)
          break;
        j = close;
        continue;
      }
      nest += fmt[j] == '{' ? 1 : fmt[j] == '}' ? -1 : 0;
    }
    std::string_view field = fmt.substr(i + 1, j - i - 2);
    i = j - 1;
    // field_name ends at the first '!' or ':' outside brackets.
    size_t k = 0;
    for (; k < field.size() && field[k] != '!' && field[k] != ':'; ++k)
      if (field[k] == '[') {
        size_t close = field.find(']', k);
        if (close == std::string_view::npos)
          break;
        std::string_view key = field.substr(k + 1, close - k - 1);
        if (isPrivate(key))
          return "the format string indexes with private key '" + std::string(key) + "'";
        k = close;
      } else if (field[k] == '.') {
        size_t end = field.find_first_of(".[!:", k + 1);
        std::string_view attr = field.substr(k + 1, end == std::string_view::npos
                                                        ? std::string_view::npos
                                                        : end - k - 1);
        if (isPrivate(attr))
          return "the format string reads private attribute '" + std::string(attr) + "'";
        if (frameAttributeOwner(attr))
          return "the format string reads introspection attribute '" + std::string(attr) + "'";
      }
    if (k < field.size() && depth == 0) {
      size_t colon = field.find(':', k);
      if (colon != std::string_view::npos)
        if (auto nested = fieldProblem(field.substr(colon + 1), depth + 1))
          return nested;
    }
  }
  return std::nullopt;
}

void judgeFormatString(Op &call, const Op *fmtOp, std::string_view what, RuleContext &ctx) {
  const ValueSet &vs = ctx.valuesOf(fmtOp);
  for (const Value &v : vs) {
    if (v.kind != ValueKind::Str || !v.known) {
      ctx.reject(call, DiagId::FormatEscape,
                 {ctx.subject(), what,
                  "the format string is assembled at run time, so it can read any attribute; "
                  "use an f-string instead"});
      return;
    }
    if (auto problem = fieldProblem(v.text)) {
      ctx.reject(call, DiagId::FormatEscape, {ctx.subject(), what, *problem});
      return;
    }
  }
}

} // namespace

bool checkFormatReference(Op &attr, RuleContext &ctx) {
  if (!isOneOf(attr.text, {"format", "format_map"}))
    return false;
  // `"...".format` on a string (or a value that may be one): judged where it
  // is referenced, since map("{0.__class__}".format, xs) calls it unseen.
  const Op *receiver = attr.operand(0);
  for (const Value &b : ctx.valuesOf(receiver))
    if (b.kind == ValueKind::Str || b.kind == ValueKind::Unknown) {
      judgeFormatString(attr, receiver, "str." + std::string(attr.text), ctx);
      return true;
    }
  return false;
}

bool checkFormatting(Op &call, const Value &callee, RuleContext &ctx) {
  if (callee.kind != ValueKind::Method || !isOneOf(callee.text, {"format", "format_map"}) ||
      !callee.op)
    return false;
  std::string what = "str." + std::string(callee.text);
  const Op *receiver = callee.op->operand(0);
  if (callee.receiver == ValueKind::Builtin) {
    // `str.format(fmt, ...)`: the format string is the first argument.
    for (const Value &b : ctx.valuesOf(receiver))
      if (b.kind == ValueKind::Builtin && b.text == "str") {
        const Op *fmt = call.operands.size() > 1 ? call.operand(1) : nullptr;
        judgeFormatString(call, fmt, what, ctx);
        return true;
      }
    return false;
  }
  if (callee.receiver != ValueKind::Str && callee.receiver != ValueKind::Unknown)
    return false;
  // A direct call was judged at its attribute (checkFormatReference); an
  // alias made elsewhere (`render = "...".format` at module level) is judged here.
  // Reported at the format string's attribute, so the two paths agree on
  // one diagnostic when both see it.
  if (call.operand(0) != callee.op)
    judgeFormatString(*callee.op, receiver, what, ctx);
  return true;
}

void checkFormatterReference(Op &op, std::string_view q, RuleContext &ctx) {
  ctx.reject(op, DiagId::FormatEscape,
             {ctx.subject(), std::string(q),
              "string.Formatter resolves fields by name (get_field), so it can read private "
              "attributes"});
}

} // namespace ivc::rules
