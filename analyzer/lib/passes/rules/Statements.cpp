//===- Statements.cpp - Statements, definitions and other constructs ------===//
//
// FAST has for loops, if/else, assignments, local functions and lambdas,
// context managers that are catalogued or nnsight's own, and try/except of
// the errors user code and torch raise. ISOLATE: while loops (IVC301), other
// try blocks (IVC302), imports of safe modules (IVC303), classes
// (IVC306), match, generators, async code and unmodeled constructs (IVC308),
// other context managers (IVC311). REJECT: global/nonlocal (IVC207),
// metaclass= (IVC208), underscore keyword patterns in match (IVC209),
// decorators that are not catalogued pure functions (IVC210).
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

bool allowedDecorator(const Value &v, const OpCatalog &cat) {
  if (v.kind == ValueKind::Builtin)
    return isOneOf(v.text, {"staticmethod", "classmethod", "property"});
  if (v.kind == ValueKind::Qualified)
    return cat.function(v.text) ||
           isOneOf(v.text, {"functools.wraps", "functools.lru_cache", "functools.cache",
                            "dataclasses.dataclass", "torch.no_grad", "torch.inference_mode",
                            "torch.enable_grad"});
  return false;
}

/// Whether a pattern only compares its subject (`case 1:`, `case Mode.A:`,
/// `case None:`, `case "a" | "b":`, `case _:`, `case other:`): what an
/// if/elif chain of `==` and `is` does. Class patterns read attributes and
/// `__match_args__`; sequence and mapping patterns iterate and index.
bool comparesOnly(const Op *pattern) {
  if (!pattern)
    return true; // `case _:`, a capture's missing sub-pattern
  switch (pattern->kind) {
  case OpKind::MatchValue: case OpKind::MatchSingleton:
    return true;
  case OpKind::MatchAs:
    return comparesOnly(pattern->operand(0));
  case OpKind::MatchOr:
    return llvm::all_of(pattern->operands, [](const Op *p) { return comparesOnly(p); });
  default:
    return false;
  }
}

/// Whether every case of a match statement only compares its subject.
bool comparesOnly(const Op &match) {
  return llvm::all_of(match.regions, [](const Region &r) {
    return llvm::all_of(r.ops, [](const Op *c) {
      return !c->is(OpKind::Case) || comparesOnly(c->operand(0));
    });
  });
}

void checkDecorator(Op &op, RuleContext &ctx) {
  const Op *expr = op.operand(0);
  // `@torch.no_grad()` and `@functools.lru_cache(maxsize=2)`: judge the factory.
  const Op *target = expr && expr->is(OpKind::Call) ? expr->operand(0) : expr;
  for (const Value &v : ctx.valuesOf(target)) {
    if (!allowedDecorator(v, ctx.m.catalog)) {
      const Op &at = expr ? *expr : op;
      std::string text(ctx.m.fileOf(ctx.unit).slice(at.range));
      ctx.reject(at, DiagId::UnsafeDecorator, {ctx.subject(), text});
      return;
    }
  }
}

// Thread-local modes that a `with` restores on exit: as context managers
// they are FAST, though `torch.set_grad_enabled(False)` alone changes the
// thread's mode for whatever runs on it next (global-state).
bool scopedMode(std::string_view q) {
  return isOneOf(q, {"torch.autocast", "torch.amp.autocast", "torch.cpu.amp.autocast",
                     "torch.cuda.amp.autocast", "torch.set_grad_enabled"});
}

// What a FAST handler may catch: the errors user code, torch and nnsight's
// API raise. Not BaseException: what ends a mediator's code (a stop, the
// host giving up on it) is one, so that nothing user code catches keeps it
// running past its meters.
bool catchableInFast(std::string_view name) {
  return isOneOf(name, {"Exception", "ArithmeticError", "AssertionError", "AttributeError",
                        "FloatingPointError", "IndexError", "KeyError", "LookupError",
                        "NameError", "NotImplementedError", "OverflowError", "RecursionError",
                        "RuntimeError", "StopIteration", "TypeError", "UnboundLocalError",
                        "UnicodeError", "ValueError", "ZeroDivisionError"});
}

/// Why a handler's types are not for FAST ("" if they are): each a builtin
/// catchableInFast names.
std::string uncatchableTypes(const Op &handler, RuleContext &ctx) {
  const Op *type = handler.operand(0);
  if (!type)
    return "with a bare 'except'";
  llvm::SmallVector<const Op *, 4> names{type};
  if (type->is(OpKind::Tuple))
    names.assign(type->operands.begin(), type->operands.end());
  for (const Op *n : names) {
    const ValueSet &values = n ? ctx.valuesOf(n) : ValueSet{};
    bool builtin = n && n->is(OpKind::Name) && !values.empty() &&
                   llvm::all_of(values, [](const Value &v) {
                     return v.kind == ValueKind::Builtin && catchableInFast(v.text);
                   });
    if (!builtin)
      return "that catches " + (n ? quotedSource(ctx, *n) : std::string("nothing named"));
  }
  return "";
}

/// Whether every read of the name a handler binds takes the caught
/// exception's message only: str(e), repr(e), print(e), f"{e}", isinstance(e,
/// ...), raise ... from e. Anything more reaches what the exception holds:
/// an AttributeError's .obj is the object whose lookup failed, which in the
/// server can be one the mediator must not have.
bool readsMessageOnly(const Op &handler, RuleContext &ctx) {
  const ScopeTree &scopes = ctx.values.scopes();
  NameResolution r = scopes.resolve(handler.text, scopes.enclosingScope(&handler));
  if (!r.symbol)
    return true;
  UseIndex &uses = ctx.values.uses();
  for (const Op *read : uses.readsOf(r.symbol)) {
    const Op *user = uses.userOf(read);
    if (!user)
      return false;
    if (user->is(OpKind::Raise) || (user->is(OpKind::FormatValue) && user->operand(0) == read))
      continue;
    if (!user->is(OpKind::Call) || user->operand(0) == read)
      return false;
    bool ok = llvm::all_of(ctx.valuesOf(user->operand(0)), [&](const Value &v) {
      return v.kind == ValueKind::Builtin &&
             (isOneOf(v.text, {"str", "repr", "print"}) ||
              (v.text == "isinstance" && user->operand(1) == read));
    });
    if (!ok)
      return false;
  }
  return true;
}

/// Why a try statement is not for FAST, or "" when it is.
std::string tryOutsideFast(const Op &op, RuleContext &ctx) {
  if (op.isAsync)
    return "with 'except*'";
  for (const Region &r : op.regions) {
    if (r.kind == RegionKind::Finally)
      return "with a 'finally' clause"; // it runs while a stop unwinds, unmetered
    if (r.kind != RegionKind::Except || r.ops.empty())
      continue;
    const Op *handler = nullptr;
    for (const Op *o : r.ops)
      if (o->is(OpKind::ExceptHandler)) {
        handler = o;
        break;
      }
    if (!handler)
      return "with a handler ivc cannot read";
    if (std::string why = uncatchableTypes(*handler, ctx); !why.empty())
      return why;
    if (!handler->text.empty() && !readsMessageOnly(*handler, ctx))
      return "whose handler reads more of '" + std::string(handler->text) +
             "' than its message";
  }
  return "";
}

} // namespace

bool opensScopedMode(RuleContext &ctx, const Op &callee, std::string_view q) {
  if (!scopedMode(q))
    return false;
  const Op *stmt = cost::statementOf(callee);
  if (!stmt || !stmt->is(OpKind::With))
    return false;
  return llvm::any_of(stmt->operands, [&](const Op *item) {
    const Op *context = item ? item->operand(0) : nullptr;
    return context && context->is(OpKind::Call) && context->operand(0) == &callee;
  });
}

namespace {

// Context managers a FAST mediator may enter: catalogued ones (torch.no_grad()),
// contextlib.nullcontext(), nnsight's tracer helpers (tracer.iter[...],
// tracer.all()), `with loss.backward():`, and a name bound once to one of
// those or to a choice of two (`ctx = nullcontext() if grad else no_grad()`).
bool confirmedContext(const Op *ctxOp, RuleContext &ctx, int depth = 0) {
  if (depth > 8)
    return false;
  if (ctxOp && ctxOp->is(OpKind::Name))
    if (const Op *value = onlyAssignedValue(ctx, ctxOp))
      return confirmedContext(value, ctx, depth + 1);
  if (ctxOp && ctxOp->is(OpKind::IfExp))
    return confirmedContext(ctxOp->operand(1), ctx, depth + 1) &&
           confirmedContext(ctxOp->operand(2), ctx, depth + 1);
  const Op *root = ctxOp;
  while (root && (root->is(OpKind::Subscript) || root->is(OpKind::Call)))
    root = root->operand(0);
  if (!root)
    return false;
  for (const Value &v : ctx.valuesOf(root)) {
    bool ok = (v.kind == ValueKind::Qualified &&
               (ctx.m.catalog.function(v.text) || scopedMode(v.text) ||
                v.text == "contextlib.nullcontext")) ||
              (v.kind == ValueKind::Method && v.receiver == ValueKind::Tracer) ||
              (v.kind == ValueKind::Method && v.text == "backward" &&
               (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation ||
                v.receiver == ValueKind::Unknown)) ||
              v.kind == ValueKind::Tracer;
    if (!ok)
      return false;
  }
  return true;
}

} // namespace

namespace {

/// Whether `nonlocal name` rebinds a variable that each call of the unit
/// makes afresh: a local of the function the unit is, or of one it defines
/// (a counter a helper's inner function bumps). Anything else outlives the
/// call: a closure's cell made where a factory ran.
bool rebindsOwnLocal(RuleContext &ctx, const Op &op) {
  if (ctx.unit.kind != CodeUnit::Kind::Function && ctx.unit.kind != CodeUnit::Kind::Lambda)
    return false;
  const ScopeTree &scopes = ctx.values.scopes();
  NameResolution r = scopes.resolve(op.text, scopes.enclosingScope(&op));
  if (!r.symbol || !r.symbol->scope || r.symbol->scope->kind == ScopeKind::Module)
    return false;
  for (const Op *o = r.symbol->scope->owner; o; o = o->parentOp())
    if (o == ctx.unit.op)
      return true;
  return false;
}

} // namespace

void checkStatement(Op &op, RuleContext &ctx) {
  switch (op.kind) {
  case OpKind::While:
    ctx.isolate(op, DiagId::WhileLoop, {ctx.subject()});
    return;
  case OpKind::Try:
    if (std::string why = tryOutsideFast(op, ctx); !why.empty())
      ctx.isolate(op, DiagId::TryBlock, {ctx.subject(), why});
    return;
  case OpKind::ExceptHandler:
  case OpKind::Case:
    return; // judged with their try or match
  case OpKind::With:
    if (op.isAsync) {
      ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "'async with'"});
      return;
    }
    if (op.withRole() != WithRole::Plain)
      return; // traces and invokes are nnsight's own
    for (const Op *item : op.operands)
      if (item && !confirmedContext(item->operand(0), ctx)) {
        std::string text(ctx.m.fileOf(ctx.unit).slice(item->operand(0)->range));
        ctx.isolate(*item, DiagId::UnconfirmedContext, {ctx.subject(), "'" + text + "'"});
        return;
      }
    return;
  case OpKind::For:
    if (op.isAsync)
      ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "'async for'"});
    return;
  case OpKind::CompFor:
    if (op.isAsync)
      ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "an async comprehension"});
    return;
  case OpKind::Import:
  case OpKind::ImportFrom: {
    std::string module(op.is(OpKind::Import) ? op.text : op.text2);
    std::string_view root = std::string_view(module).substr(0, module.find('.'));
    const Policy &p = ctx.m.policy;
    if (op.number > 0 || p.prohibitedModule(op.is(OpKind::Import)
                                                ? std::string(op.text)
                                                : module + "." + std::string(op.text)) ||
        (!p.isSafeModule(root) && std::find(p.importAllowlist.begin(), p.importAllowlist.end(),
                                            root) == p.importAllowlist.end()))
      return; // the blacklist's
    ctx.isolate(op, DiagId::ImportStatement, {ctx.subject(), module});
    return;
  }
  case OpKind::Nonlocal:
    if (rebindsOwnLocal(ctx, op))
      return;
    [[fallthrough]];
  case OpKind::Global:
    ctx.reject(op, DiagId::ScopeDeclaration,
               {ctx.subject(), op.text, op.is(OpKind::Global) ? "global" : "nonlocal"});
    return;
  case OpKind::FunctionDef:
    if (op.isAsync)
      ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "'async def'"});
    return;
  case OpKind::Decorator:
    checkDecorator(op, ctx);
    return;
  case OpKind::ClassDef:
    for (const Op *k : op.operands)
      if (k && k->is(OpKind::Keyword) && k->text == "metaclass") {
        ctx.reject(*k, DiagId::MetaclassKeyword, {ctx.subject(), op.text});
        return;
      }
    // A class reached from the mediator is "used"; one inside its code "defined".
    if (ctx.unit.op == &op)
      ctx.isolate(op, DiagId::ClassDefinition,
                  {ctx.m.subject(ctx.m.code.units[0]), "uses", op.text});
    else
      ctx.isolate(op, DiagId::ClassDefinition, {ctx.subject(), "defines", op.text});
    return;
  case OpKind::Match:
    if (!comparesOnly(op))
      ctx.isolate(op, DiagId::UnconfirmedConstruct,
                  {ctx.subject(), "a match statement with a class, sequence or mapping pattern"});
    return;
  case OpKind::MatchKeyword:
    if (isPrivate(op.text))
      ctx.reject(op, DiagId::MatchPrivateAttribute, {ctx.subject(), op.text});
    return;
  case OpKind::MatchMapping:
    // `case {"_hidden": v}` reads a private key like d["_hidden"] (IVC206).
    for (size_t i = 0; i + 1 < op.operands.size(); i += 2)
      if (auto key = knownString(ctx, op.operands[i]); key && isPrivate(*key)) {
        ctx.reject(*op.operands[i], DiagId::PrivateSubscript, {ctx.subject(), *key});
        return;
      }
    return;
  case OpKind::MatchValue: case OpKind::MatchSingleton: case OpKind::MatchSequence:
  case OpKind::MatchClass: case OpKind::MatchStar:
  case OpKind::MatchAs: case OpKind::MatchOr:
    return; // the match statement decides the tier
  case OpKind::Yield:
  case OpKind::YieldFrom:
    ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "a generator ('yield')"});
    return;
  case OpKind::Await:
    ctx.isolate(op, DiagId::UnconfirmedConstruct, {ctx.subject(), "'await'"});
    return;
  case OpKind::Opaque:
    ctx.isolate(op, DiagId::UnconfirmedConstruct,
                {ctx.subject(), "'" + std::string(op.text) + "', a construct ivc does not model"});
    return;
  default:
    ctx.isolate(op, DiagId::UnconfirmedConstruct,
                {ctx.subject(), "'" + std::string(mnemonic(op.kind)) + "'"});
    return;
  }
}

} // namespace ivc::rules
