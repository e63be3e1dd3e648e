//===- PlanFactsPass.cpp - Free names and definitions for the plan --------===//
//
// So that a runtime can execute a mediator without the original file, the plan
// lists the names the body reads but does not bind (the caller supplies their
// values) and the source of every function, class and lambda it reaches,
// in source order. A free name the file binds once, outside the mediators, to a
// constant (`scale = 2`, `LAYERS = [2, 4]`, `halve = make_scale(0.5)`) is a
// definition too: the verdict may rest on that value, so the runtime binds
// it, not the caller. Free names the caller supplies come with the kind the
// verdict relies on (`free_types`), which the runtime checks.
//
//===----------------------------------------------------------------------===//
#include "ivc/passes/Pass.h"

#include "ivc/frontend/Frontend.h"
#include "ivc/support/Text.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>

namespace ivc {

using namespace ir;

namespace {

// The statement a lambda of the module belongs to (`f = lambda x: ...`).
const Op *statementOf(const Op *op) {
  const Region *r = op->parentRegion;
  if (!r)
    return op;
  auto it = std::find(r->ops.begin(), r->ops.end(), op);
  for (; it != r->ops.end(); ++it)
    if ((*it)->cls() == OpClass::Stmt)
      return *it;
  return op;
}

/// Whether the plan defines what the statement `stmt` of `u` defines (a def,
/// a class, `name = lambda ...`): one the module or the function around the
/// trace defines, at any depth of `if`, `try` or loops, but not the
/// mediator's own statements. Another definition defines those nested in it.
bool definedByPlan(const CodeUnit &u, const Op &stmt, const Mediator &m) {
  if (m.bodyRange.contains(stmt.range.begin.offset))
    return false;
  ValueAnalysis &values = *u.context->values;
  for (const Op *o = stmt.parentOp(); o; o = o->parentOp())
    if ((o->is(OpKind::FunctionDef) && !values.outerScope(u.context->scopes->scopeOf(o))) ||
        o->is(OpKind::ClassDef) || o->is(OpKind::Lambda))
      return false;
  return true;
}

/// Whether `stmt` is `name = lambda` of `lambda` itself: any other statement
/// around a lambda would run code nothing judged.
bool namesLambda(const Op &stmt, const Op &lambda) {
  return stmt.is(OpKind::Assign) && stmt.operands.size() == 2 && stmt.operand(1) == &lambda &&
         stmt.operand(0) && stmt.operand(0)->is(OpKind::Name);
}

class PlanFactsPass : public Pass {
public:
  std::string_view name() const override { return "plan-facts"; }

  void run(MediatorContext &ctx) override {
    placed_.clear();
    const CodeUnit &body = ctx.code.units.front();
    ctx.facts.inFunction = inFunction(body, ctx.mediator.withOp);
    ctx.facts.functionLocals = functionLocals(body, ctx.mediator.withOp);
    freeNames(ctx);
    definitions(ctx);
    // In source order, as Python runs the module (a def's defaults and a
    // constant's call read what comes before them); other files' first.
    std::stable_sort(placed_.begin(), placed_.end(), [&](const Placed &a, const Placed &b) {
      bool aMain = a.file == &ctx.mainFile, bMain = b.file == &ctx.mainFile;
      if (aMain != bMain)
        return bMain;
      if (a.file != b.file)
        return a.file->path() < b.file->path();
      return a.offset < b.offset;
    });
    ctx.facts.definitions.clear();
    for (Placed &p : placed_)
      ctx.facts.definitions.push_back(std::move(p.definition));
  }

private:
  /// A definition and where its source begins.
  struct Placed {
    Definition definition;
    const SourceFile *file;
    uint32_t offset;
  };
  std::vector<Placed> placed_;

  /// Whether the function around the trace, not the module, binds what `op`
  /// is or defines.
  static bool inFunction(const CodeUnit &unit, const Op *op) {
    const Scope *s = op ? unit.context->scopes->enclosingScope(op) : nullptr;
    return s && s->kind == ScopeKind::Function;
  }

  /// The names the functions around `op` bind (those a runtime runs none
  /// of: the body's own function and the functions holding it).
  static std::vector<std::string> functionLocals(const CodeUnit &unit, const Op *op) {
    std::vector<std::string> names;
    ValueAnalysis &values = *unit.context->values;
    for (const Scope *s = op ? unit.context->scopes->enclosingScope(op) : nullptr;
         s && s->kind == ScopeKind::Function && values.outerScope(s); s = s->parent)
      for (const auto &entry : s->symbols)
        if (!s->globals.count(entry.getKey()) && !s->nonlocals.count(entry.getKey()))
          names.emplace_back(entry.getKey());
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
  }

  /// Records a pinned constant `name = value` the mediator reads, once for
  /// the module and once for the function around the trace.
  void addConstant(ValueAnalysis &values, const SourceFile &file, const Symbol &s,
                   const Op *value) {
    bool local = s.scope && s.scope->kind == ScopeKind::Function;
    for (const Placed &p : placed_)
      if (p.definition.name == s.name && p.definition.inFunction == local)
        return;
    placed_.push_back(
        {{std::string(s.name),
          std::string(s.name) + " = (" + std::string(file.slice(value->range)) + ")\n", local,
          values.emptyContainer(value)},
         &file,
         value->range.begin.offset});
  }

  /// The name ops that start a dotted receiver in the body (`self` of
  /// `self.model.lm_head` under `with self.model.trace(...)`): the runtime
  /// binds the receiver's path, so they read no value of the caller's.
  static llvm::DenseSet<const Op *> receiverRoots(MediatorContext &ctx, const CodeUnit &body) {
    llvm::DenseSet<const Op *> roots;
    llvm::SmallVector<llvm::StringRef, 4> parts;
    llvm::StringRef(ctx.trace.receiver).split(parts, '.');
    if (parts.size() < 2)
      return roots;
    ctx.code.forEachOp(body, [&](Op *op) {
      const Op *o = op;
      for (size_t i = parts.size(); i-- > 1;) {
        if (!o || !o->is(OpKind::Attribute) || llvm::StringRef(o->text) != parts[i])
          return;
        o = o->operand(0);
      }
      if (o && o->is(OpKind::Name) && llvm::StringRef(o->text) == parts[0])
        roots.insert(o);
    });
    return roots;
  }

  // Names the body reads without binding them, and the module-level names the
  // definitions it reaches read: a runtime binds them before running the code.
  void freeNames(MediatorContext &ctx) {
    const Mediator &m = ctx.mediator;
    std::vector<std::string> names, functionNames;
    llvm::StringRef root = llvm::StringRef(ctx.trace.receiver).split('.').first;
    bool dotted = root.size() != ctx.trace.receiver.size();
    const Op *rootRead = nullptr; // of the body: `self.layer` in `self.model.trace()`
    const CodeUnit *rootUnit = nullptr;
    for (const CodeUnit &unit : ctx.code.units) {
      ValueAnalysis &values = *unit.context->values;
      bool body = unit.kind == CodeUnit::Kind::Mediator;
      llvm::DenseSet<const Op *> roots;
      if (body)
        roots = receiverRoots(ctx, unit);
      ctx.code.forEachOp(unit, [&](Op *op) {
        if (!op->is(OpKind::Name) || op->ctx != Ctx::Load || roots.contains(op))
          return;
        NameResolution r = unit.context->scopes->resolve(op);
        if (r.kind == NameResolution::Kind::Builtin)
          return;
        if (!body && r.kind != NameResolution::Kind::Global &&
            r.kind != NameResolution::Kind::Undefined &&
            !(r.symbol && values.outerScope(r.symbol->scope)))
          return; // a definition's own locals and closures
        if (body && r.symbol && values.boundWithin(*r.symbol, m.bodyRange))
          return; // bound in the body
        if (const Op *value = r.symbol ? values.pinnedConstant(*r.symbol) : nullptr)
          return addConstant(values, ctx.fileOf(unit), *r.symbol, value);
        if (std::optional<int64_t> n = r.symbol ? values.preludeBarrier(*r.symbol) : std::nullopt) {
          ctx.facts.barriers.emplace(op->text, *n);
          return;
        }
        // A name for a module or a configuration value, which the runtime
        // binds; the analysis took it for that part of the model.
        if (std::optional<std::string> path = r.symbol ? values.modelAlias(*r.symbol)
                                                        : std::nullopt) {
          ctx.facts.modelAliases.emplace(op->text, *path);
          return;
        }
        bool namesCode = false;
        for (const Value &v : values.valuesOf(op)) {
          // The model or the tracer; a barrier (`barrier = tracer.barrier(2)`
          // in the trace's body) is a free name, the caller's ivc.Barrier,
          // and so is another name for a part of the model ivc cannot name
          // (`model.transformer.h[n - 1]`).
          if ((v.kind == ValueKind::Envoy && llvm::StringRef(op->text) == root) ||
              (v.kind == ValueKind::Tracer && r.symbol && values.boundByRuntime(*r.symbol)))
            return;
          namesCode |= v.kind == ValueKind::UserFunction || v.kind == ValueKind::UserClass ||
                       v.kind == ValueKind::Lambda;
        }
        if (namesCode && r.symbol && ValueAnalysis::boundToDefinitions(*r.symbol))
          return; // a definition
        names.emplace_back(op->text);
        if (dotted && !rootRead && llvm::StringRef(op->text) == root)
          rootRead = op, rootUnit = &unit;
        if (r.symbol && r.symbol->scope && r.symbol->scope->kind == ScopeKind::Function)
          functionNames.emplace_back(op->text);
        if (std::optional<ValueKind> kind =
                r.symbol && values.fromCaller(op) ? values.callerKind(*r.symbol) : std::nullopt)
          ctx.facts.freeTypes.emplace(op->text, freeTypeName(*kind));
        const ValueSet &vs = values.valuesOf(op);
        if (auto path = r.symbol ? values.importedModule(*r.symbol) : std::nullopt;
            path && vs.size() == 1)
          ctx.facts.freeImports.emplace(op->text, *path);
      });
    }
    for (std::vector<std::string> *v : {&names, &functionNames}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    ctx.facts.freeNames = std::move(names);
    ctx.facts.functionNames = std::move(functionNames);
    // A runtime gives the trace its model alone: nothing the caller passes
    // can be `self` beside `self.model`.
    if (rootRead)
      ctx.report(Tier::Reject, *rootUnit, *rootRead, DiagId::ReceiverRootRead,
                 {ctx.subject(*rootUnit), root, ctx.trace.receiver});
  }

  void definitions(MediatorContext &ctx) {
    for (size_t i = 1; i < ctx.code.units.size(); ++i) {
      const CodeUnit &u = ctx.code.units[i];
      bool lambda = u.kind == CodeUnit::Kind::Lambda;
      const Op *stmt = lambda ? statementOf(u.op) : u.op;
      if ((lambda && !namesLambda(*stmt, *u.op)) || !definedByPlan(u, *stmt, ctx.mediator))
        continue;
      const ParsedFile &parsed = ctx.parsedOf(u);
      const SourceFile &file = *parsed.source;
      std::string name(lambda ? stmt->operand(0)->text : u.op->text);
      uint32_t begin = stmt->range.begin.offset;
      std::string source =
          dedent(file.slice(stmt->range), indentWidth(file.lineText(stmt->range.begin.line)),
                 [&](size_t at) { return parsed.insideString(begin + uint32_t(at)); });
      placed_.push_back({{name, std::move(source), inFunction(u, stmt)},
                         &file,
                         stmt->range.begin.offset});
    }
  }
};

} // namespace

std::unique_ptr<Pass> createPlanFactsPass() { return std::make_unique<PlanFactsPass>(); }

} // namespace ivc
