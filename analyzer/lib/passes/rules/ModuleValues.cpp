//===- ModuleValues.cpp - Modules stay where the analysis sees them -------===//
//
// The analysis follows a module through names (`t = torch`), attributes,
// calls of it and the functions that return it; it checks every attribute
// read on it (`torch.os` is IVC101). Stored in a container, passed as an
// argument or bound to a parameter, the module becomes a value ivc cannot
// type, and attributes read on that value are not judged: `max([torch]).os`
// or `run(torch)` with `def run(m): m.os.system(...)` would reach any module
// torch imports, in the server's process. So a module, or any other member
// of one that is not a catalogued function or constant or a known class,
// used other than as the object of an attribute, a callee, a plain name's
// value or an operand that passes it on (`x if c else torch`), or changed
// through such a name (`x |= ...`), makes the mediator ISOLATE.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

/// Whether `op` may evaluate to a module: what reads a name, an attribute,
/// an item or a call's result, or passes one of those on (a call's
/// keyword and star arguments stand for what they hold).
bool mayHoldModule(const Op *op) {
  if (!op)
    return false;
  switch (op->kind) {
  case OpKind::Name: case OpKind::Attribute: case OpKind::Subscript: case OpKind::Starred:
    return op->ctx == Ctx::Load;
  case OpKind::Call: case OpKind::IfExp: case OpKind::BoolOp: case OpKind::NamedExpr:
  case OpKind::Keyword: case OpKind::KwSplat:
    return true;
  default:
    return false;
  }
}

/// Whether `user` keeps its operand `i` in the analysis's sight: the object
/// of an attribute, a callee, a value bound to plain names, or an operand
/// whose value flows into `user`'s own, which is judged where it is used.
bool followedUse(const Op &user, size_t i) {
  switch (user.kind) {
  case OpKind::Attribute: case OpKind::Call:
    return i == 0;
  case OpKind::Assign: {
    // targets..., value
    for (size_t t = 0; t + 1 < user.operands.size(); ++t)
      if (const Op *target = user.operand(t); !target || !target->is(OpKind::Name))
        return false;
    return true;
  }
  case OpKind::AnnAssign:
    return user.operand(0) && user.operand(0)->is(OpKind::Name);
  case OpKind::IfExp:
    return i > 0;
  case OpKind::BoolOp: case OpKind::NamedExpr: case OpKind::Return: case OpKind::ExprStmt:
  case OpKind::Compare: case OpKind::FormatValue: case OpKind::Decorator:
  // A keyword's value is judged as its call's argument.
  case OpKind::Keyword:
    return true;
  default:
    return false;
  }
}

/// How many of a call's operands (the callee first) keep a module in sight:
/// `isinstance(x, torch.nn.Linear)` only compares against the class, and
/// `getattr(torch, "nn")` is judged as the attribute it reads
/// (DynamicLookup); `setattr(obj, "m", torch)` stores its third argument.
size_t followedOperands(RuleContext &ctx, const Op &call) {
  const ValueSet &callee = ctx.valuesOf(call.operand(0));
  auto all = [&](std::initializer_list<std::string_view> names) {
    return !callee.empty() && llvm::all_of(callee, [&](const Value &v) {
      return v.kind == ValueKind::Builtin && isOneOf(v.text, names);
    });
  };
  if (all({"isinstance", "issubclass", "getattr", "hasattr", "delattr"}))
    return call.operands.size();
  return all({"setattr"}) ? 3 : 1;
}

/// The unconfirmed module member `op` may evaluate to, if any.
std::optional<std::string_view> unconfirmedMember(RuleContext &ctx, const Op *op) {
  for (const Value &v : ctx.valuesOf(op))
    if (v.kind == ValueKind::Qualified && !reportedReference(ctx, v.text) &&
        !confirmedValue(ctx, v.text))
      return v.text;
  return std::nullopt;
}

/// typing's forms, which subscripted build an alias for annotations.
bool typingForm(std::string_view q) {
  return isOneOf(q, {"typing.Literal", "typing.Annotated", "typing.ClassVar", "typing.Final",
                     "typing.Optional", "typing.Union", "typing.List", "typing.Dict",
                     "typing.Tuple", "typing.Set", "typing.Sequence", "typing.Mapping",
                     "typing.Iterable", "typing.Callable", "typing.Type"});
}

/// Whether a typing form's subscript is made of constants and types only
/// (`Literal["mean", "sum"]`, `Optional[List[int]]`): typing caches what
/// it is given process-wide, which must hold nothing of a mediator's.
bool constantTypeArguments(RuleContext &ctx, const Op *index, int depth = 0) {
  if (!index || depth > 16)
    return false;
  switch (index->kind) {
  case OpKind::Str: case OpKind::Int: case OpKind::Float: case OpKind::None:
  case OpKind::True: case OpKind::False: case OpKind::Ellipsis:
    return true;
  case OpKind::Tuple: case OpKind::List:
    return llvm::all_of(index->operands,
                        [&](const Op *o) { return constantTypeArguments(ctx, o, depth + 1); });
  case OpKind::Subscript: // `List[int]` within
    return constantTypeArguments(ctx, index->operand(0), depth + 1) &&
           constantTypeArguments(ctx, index->operand(1), depth + 1);
  case OpKind::Name: case OpKind::Attribute: {
    const ValueSet &vs = ctx.valuesOf(index);
    return !vs.empty() && llvm::all_of(vs, [&](const Value &v) {
      return (v.kind == ValueKind::Builtin &&
              isOneOf(v.text, {"int", "float", "str", "bool", "bytes", "complex", "list",
                               "dict", "tuple", "set", "frozenset", "type", "object"})) ||
             (v.kind == ValueKind::Qualified &&
              (typingForm(v.text) || confirmedValue(ctx, v.text)));
    });
  }
  default:
    return false;
  }
}

/// `Reduction = Literal["mean", "sum"]`, an alias for annotations.
bool constantTypingAlias(RuleContext &ctx, const Op &op, size_t i, std::string_view member) {
  return op.is(OpKind::Subscript) && i == 0 && typingForm(member) &&
         constantTypeArguments(ctx, op.operand(1));
}

} // namespace

void checkModuleOperands(Op &op, RuleContext &ctx) {
  if (ctx.annotations.contains(&op))
    return;
  // `table = np.sctypeDict; table |= {...}`: an augmented assignment changes
  // a list, dict or set in place, and the name may hold a module's own.
  if (const Op *target = op.is(OpKind::AugAssign) ? op.operand(0) : nullptr;
      target && target->is(OpKind::Name))
    if (std::optional<std::string_view> member = unconfirmedMember(ctx, target)) {
      ctx.isolate(op, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "'" + std::string(op.text) + "' on '" + std::string(*member) +
                                      "' (it may change the module's own object)"});
      return;
    }
  for (size_t i = 0; i < op.operands.size(); ++i) {
    const Op *operand = op.operand(i);
    if (!mayHoldModule(operand) || followedUse(op, i) || ctx.annotations.contains(operand))
      continue;
    // A call's keyword and star arguments are judged by what they hold.
    if (op.is(OpKind::Call) && (operand->is(OpKind::Keyword) || operand->is(OpKind::Starred) ||
                                operand->is(OpKind::KwSplat)))
      operand = operand->operand(0);
    std::optional<std::string_view> member = unconfirmedMember(ctx, operand);
    // Rare: what the callee is only matters once a module is passed to it.
    if (member && !(op.is(OpKind::Call) && i < followedOperands(ctx, op)) &&
        !constantTypingAlias(ctx, op, i, *member)) {
      ctx.isolate(*operand, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "'" + std::string(*member) +
                                      "' as a value (ivc does not follow what is read from it)"});
      return;
    }
  }
}

} // namespace ivc::rules
