//===- DynamicLookup.cpp - Attributes looked up by string -----------------===//
//
// getattr, setattr, delattr and hasattr with a computed or underscore name
// (IVC204); operator.attrgetter, operator.methodcaller and
// functools.reduce(getattr, ...) whose names can reach an underscore attribute,
// including names assembled at run time (IVC205); operator.itemgetter with an
// underscore key (IVC206).
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

// Why an attribute name (possibly dotted, for attrgetter) is unsafe, if it is.
std::optional<std::string> unsafeName(std::string_view name) {
  while (true) {
    size_t dot = name.find('.');
    std::string_view part = name.substr(0, dot);
    if (isPrivate(part))
      return "private attribute '" + std::string(part) + "'";
    if (frameAttributeOwner(part))
      return "introspection attribute '" + std::string(part) + "'";
    if (dot == std::string_view::npos)
      return std::nullopt;
    name = name.substr(dot + 1);
  }
}

void judgeGetattrFamily(Op &call, std::string_view builtin, RuleContext &ctx) {
  if (ctx.m.policy.isProhibitedBuiltin(builtin))
    return; // the blacklist reports it at the name
  std::optional<std::string_view> name = knownString(ctx, positionalArgument(call, 1));
  if (!name) {
    ctx.reject(call, DiagId::DynamicAttribute,
               {ctx.subject(), builtin, "a name computed at run time"});
    return;
  }
  if (auto why = unsafeName(*name); why || name->find('.') != std::string_view::npos) {
    ctx.reject(call, DiagId::DynamicAttribute,
               {ctx.subject(), builtin, why ? "the " + *why : "the name '" + std::string(*name) + "'"});
    return;
  }
  // setattr/delattr with a public name is an attribute write: the same rule
  // as `obj.name = value` (IVC309).
  if (builtin == "setattr" || builtin == "delattr")
    for (const Value &b : ctx.valuesOf(positionalArgument(call, 0)))
      if (b.kind != ValueKind::Instance) {
        ctx.isolate(call, DiagId::SharedStateWrite, {ctx.subject(), *name, describeBase(b)});
        return;
      }
}

// Whether every part of a public attribute name is one a FAST mediator may
// reach by string: a tensor's attribute or method, a string's or container's
// pure method, an envoy's activation; not a module (`attrgetter("os")(torch)`).
bool confirmedName(std::string_view name, RuleContext &ctx) {
  const OpCatalog &cat = ctx.m.catalog;
  while (true) {
    size_t dot = name.find('.');
    std::string_view part = name.substr(0, dot);
    if (!(confirmedMethodName(part, cat) || cat.isTensorAttribute(part) ||
          isOneOf(part, {"output", "input", "inputs", "grad"})))
      return false;
    if (dot == std::string_view::npos)
      return true;
    name = name.substr(dot + 1);
  }
}

void judgeNames(Op &call, std::string_view what, size_t count, RuleContext &ctx) {
  bool any = false;
  std::optional<std::string_view> unconfirmed;
  for (size_t i = 0; i < count; ++i) {
    const Op *arg = positionalArgument(call, i);
    if (!arg)
      break;
    any = true;
    std::optional<std::string_view> name = knownString(ctx, arg);
    if (!name) {
      ctx.reject(call, DiagId::FormatEscape,
                 {ctx.subject(), what,
                  "its attribute name is assembled at run time, so it can reach private "
                  "attributes"});
      return;
    }
    if (auto why = unsafeName(*name)) {
      ctx.reject(call, DiagId::FormatEscape, {ctx.subject(), what, "it reads the " + *why});
      return;
    }
    std::string_view last = name->substr(name->rfind('.') + 1);
    if (isOneOf(last, {"format", "format_map"})) {
      ctx.reject(call, DiagId::FormatEscape,
                 {ctx.subject(), what,
                  "it reaches str." + std::string(last) +
                      ", whose format string can reach private attributes"});
      return;
    }
    if (!unconfirmed && !confirmedName(*name, ctx))
      unconfirmed = *name;
  }
  if (!any)
    ctx.reject(call, DiagId::FormatEscape,
               {ctx.subject(), what, "its attribute names are not visible to ivc"});
  else if (unconfirmed)
    ctx.isolate(call, DiagId::UnconfirmedConstruct,
                {ctx.subject(), std::string(what) + " of '" + std::string(*unconfirmed) +
                                    "', not a tensor, string or container member"});
}

} // namespace

bool checkDynamicLookup(Op &call, const Value &callee, RuleContext &ctx) {
  if (callee.kind == ValueKind::Builtin &&
      isOneOf(callee.text, {"getattr", "setattr", "delattr", "hasattr"})) {
    judgeGetattrFamily(call, callee.text, ctx);
    return true;
  }
  if (callee.kind != ValueKind::Qualified)
    return false;
  std::string_view q = callee.text;
  if (q == "operator.attrgetter") {
    judgeNames(call, "operator.attrgetter", call.operands.size(), ctx);
    return true;
  }
  if (q == "operator.methodcaller") {
    judgeNames(call, "operator.methodcaller", 1, ctx);
    return true;
  }
  if (q == "operator.itemgetter") {
    for (size_t i = 0; const Op *arg = positionalArgument(call, i); ++i)
      if (auto key = knownString(ctx, arg); key && isPrivate(*key)) {
        ctx.reject(call, DiagId::PrivateSubscript, {ctx.subject(), *key});
        break;
      }
    return true;
  }
  if (q == "functools.reduce") {
    // reduce(getattr, ["__class__", ...], obj) walks attributes by name.
    const Op *fn = positionalArgument(call, 0);
    bool lookup = false;
    for (const Value &v : ctx.valuesOf(fn))
      lookup |= (v.kind == ValueKind::Builtin && isOneOf(v.text, {"getattr", "hasattr"})) ||
                (v.kind == ValueKind::Qualified && v.text == "operator.attrgetter");
    if (!lookup)
      return false;
    const Op *names = positionalArgument(call, 1);
    if (!names || !(names->is(OpKind::List) || names->is(OpKind::Tuple))) {
      ctx.reject(call, DiagId::FormatEscape,
                 {ctx.subject(), "functools.reduce(getattr, ...)",
                  "its attribute names are assembled at run time, so they can reach private "
                  "attributes"});
      return true;
    }
    for (const Op *n : names->operands) {
      std::optional<std::string_view> name = knownString(ctx, n);
      std::optional<std::string> why = name ? unsafeName(*name) : std::nullopt;
      if (!name || why) {
        ctx.reject(call, DiagId::FormatEscape,
                   {ctx.subject(), "functools.reduce(getattr, ...)",
                    why ? "it reads the " + *why : std::string("an attribute name is computed")});
        return true;
      }
    }
    return false; // the call itself is then judged like any other
  }
  return false;
}

} // namespace ivc::rules
