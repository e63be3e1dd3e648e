//===- Namespaces.cpp - Names a runtime cannot keep apart (IVC308) --------===//
//
// A runtime keeps two namespaces for a mediator: the module's, and a copy of
// it for the function around the trace, where the body runs (docs/runtime.md,
// "What mediator code sees"). Python keeps more variables apart than that:
// - the caller passes one value per name, and imports are bound by name, so
//   a module's `s` and the function's `s` that both come from there get one
//   value, judged as two (`s % v` formatting a str in a module helper while
//   the function's `s` is a tensor);
// - the functions around the trace share the second namespace, so an outer
//   function's `d`, read by a closure made there, is the body's `d` too.
// A mediator that reaches one name as two such variables is ISOLATE.
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

using namespace ir;

namespace {

struct Variable {
  const Symbol *symbol;
  const CodeUnit *unit;
  const Op *op; // where the mediator first reaches it
};

/// Whether a runtime binds `s` by its name from the caller's values or an
/// import, rather than from a definition or the body itself.
bool boundByName(ValueAnalysis &values, const Symbol &s, const Mediator &m) {
  if (values.importedModule(s))
    return true;
  return !values.pinnedConstant(s) && !ValueAnalysis::boundToDefinitions(s) &&
         !values.boundWithin(s, m.bodyRange);
}

} // namespace

void checkSharedNames(MediatorContext &m) {
  llvm::StringMap<llvm::SmallVector<Variable, 2>> byName;
  for (const CodeUnit &unit : m.code.units) {
    ValueAnalysis &values = *unit.context->values;
    bool body = unit.kind == CodeUnit::Kind::Mediator;
    const ScopeTree &scopes = *unit.context->scopes;
    m.code.forEachOp(unit, [&](Op *op) {
      // Names read, and names the body binds (a walrus's target too, which a
      // comprehension binds in the function around it).
      const Symbol *s = nullptr;
      if (op->is(OpKind::Name) && (op->ctx == Ctx::Load || body))
        s = scopes.resolve(op).symbol;
      else if (op->is(OpKind::NamedExpr) && body)
        s = scopes.resolve(op->text, scopes.enclosingScope(op)).symbol;
      if (!s || !values.outerScope(s->scope) || values.boundByRuntime(*s))
        return;
      auto &seen = byName[s->name];
      if (llvm::none_of(seen, [&](const Variable &v) { return v.symbol == s; }))
        seen.push_back({s, &unit, op});
    });
  }
  for (auto &[name, seen] : byName) {
    if (seen.size() < 2)
      continue;
    int inFunctions = 0, byNames = 0;
    for (const Variable &v : seen) {
      inFunctions += v.symbol->scope->kind == ScopeKind::Function;
      byNames += boundByName(*v.unit->context->values, *v.symbol, m.mediator);
    }
    if (inFunctions < 2 && byNames < 2)
      continue;
    const Variable &second = seen[1];
    std::string what =
        "the name '" + std::string(name) + "' for " +
        (inFunctions >= 2
             ? "variables of two functions around the trace (a runtime keeps one of them)"
             : "a variable of the module and one of the function around the trace, both bound "
               "by name (a runtime binds one value to both)");
    m.report(Tier::Isolate, *second.unit, *second.op, DiagId::UnconfirmedConstruct,
             {m.subject(*second.unit), what});
  }
}

} // namespace ivc::rules
