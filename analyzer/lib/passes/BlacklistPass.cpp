//===- BlacklistPass.cpp - References to prohibited modules and builtins --===//
//
// A reference in a mediator's effective code to a prohibited module, to
// anything imported from one, or to a prohibited builtin is an error: directly,
// through an alias, captured from an enclosing scope, via a module attribute
// chain, or imported inside the body. The error sits at the reference, with a
// note where the alias or import binds it.
//
//===----------------------------------------------------------------------===//
#include "ivc/passes/Pass.h"

#include "ivc/frontend/Frontend.h"

namespace ivc {

using namespace ir;

namespace {

bool isIdentifier(std::string_view s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9'))
    return false;
  for (char c : s)
    if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
      return false;
  return true;
}

// The call whose callee is `callee`: it follows its operands in the same region.
Op *callOf(const Op *callee) {
  Region *r = callee->parentRegion;
  if (!r)
    return nullptr;
  auto it = std::find(r->ops.begin(), r->ops.end(), callee);
  for (; it != r->ops.end(); ++it)
    if ((*it)->is(OpKind::Call) && (*it)->operand(0) == callee)
      return *it;
  return nullptr;
}

class BlacklistPass : public Pass {
public:
  std::string_view name() const override { return "blacklist"; }

  void run(MediatorContext &ctx) override {
    for (const CodeUnit &unit : ctx.code.units)
      ctx.code.forEachOp(unit, [&](Op *op) { check(ctx, unit, op); });
  }

private:
  void check(MediatorContext &ctx, const CodeUnit &unit, Op *op) {
    switch (op->kind) {
    case OpKind::Name:
      if (op->ctx == Ctx::Load)
        checkReference(ctx, unit, op);
      return;
    case OpKind::Attribute:
      checkReference(ctx, unit, op);
      return;
    case OpKind::Import:
    case OpKind::ImportFrom:
      checkImport(ctx, unit, op);
      return;
    default:
      return;
    }
  }

  static bool prohibitedValue(MediatorContext &ctx, const Value &v) {
    if (v.kind == ValueKind::Builtin)
      return ctx.policy.isProhibitedBuiltin(v.text);
    if (v.kind == ValueKind::Qualified)
      return ctx.policy.prohibitedModule(v.text).has_value();
    return false;
  }

  void checkReference(MediatorContext &ctx, const CodeUnit &unit, Op *op) {
    ValueAnalysis &values = *unit.context->values;
    // In a chain (os.path.join), report the root once.
    if (op->is(OpKind::Attribute))
      for (const Value &base : values.valuesOf(op->operand(0)))
        if (prohibitedValue(ctx, base))
          return;
    for (const Value &v : values.valuesOf(op)) {
      if (v.kind == ValueKind::Builtin && ctx.policy.isProhibitedBuiltin(v.text)) {
        Diagnostic *d = ctx.report(Tier::Reject, unit, *op, DiagId::ProhibitedBuiltin,
                                   {ctx.subject(unit), v.text, ctx.policy.serverName});
        if (d) {
          aliasNote(ctx, unit, op, v, *d);
          attributeFixIt(ctx, unit, op, v.text, *d);
        }
      } else if (v.kind == ValueKind::Qualified) {
        auto match = ctx.policy.prohibitedModule(v.text);
        if (!match)
          continue;
        Diagnostic *d =
            ctx.report(Tier::Reject, unit, *op, DiagId::ProhibitedModule,
                       {ctx.subject(unit), match->module, match->category, ctx.policy.serverName});
        if (d)
          aliasNote(ctx, unit, op, v, *d);
      }
    }
  }

  // Where a name got the prohibited value, when that is not obvious from the reference.
  void aliasNote(MediatorContext &ctx, const CodeUnit &unit, Op *ref, const Value &v,
                 Diagnostic &d) {
    if (!ref->is(OpKind::Name))
      return;
    const SourceFile *file = &ctx.fileOf(unit) == &ctx.mainFile ? nullptr : &ctx.fileOf(unit);
    if (v.manifest) {
      d.notes.push_back({ref->range,
                         "'" + std::string(ref->text) + "' is bound to '" + std::string(v.text) +
                             "' in the capture manifest",
                         file});
      return;
    }
    if (v.kind == ValueKind::Builtin && ref->text == v.text)
      return;
    // Point at what binds the name: its import, or the assignments of an alias
    // (`run = sp.run` is bound there, even though `sp` is imported elsewhere).
    NameResolution r = unit.context->scopes->resolve(ref);
    if (!r.symbol)
      return;
    for (const Binding &b : r.symbol->bindings) {
      if (b.kind == Binding::Kind::Import || b.kind == Binding::Kind::ImportFrom)
        d.notes.push_back({b.site->range, "'" + std::string(ref->text) + "' is imported here", file});
      else if (b.kind == Binding::Kind::Assign || b.kind == Binding::Kind::Walrus)
        d.notes.push_back({b.site->range, "'" + std::string(ref->text) + "' is bound here", file});
    }
  }

  // getattr(o, "name") is o.name; setattr/delattr statements likewise.
  void attributeFixIt(MediatorContext &ctx, const CodeUnit &unit, Op *callee,
                      std::string_view builtin, Diagnostic &d) {
    if (builtin != "getattr" && builtin != "setattr" && builtin != "delattr")
      return;
    Op *call = callOf(callee);
    size_t want = builtin == "setattr" ? 4 : 3;
    if (!call || call->operands.size() != want)
      return;
    Op *object = call->operand(1), *nameArg = call->operand(2);
    if (!object || !nameArg || !nameArg->is(OpKind::Str) || !isIdentifier(nameArg->text) ||
        nameArg->text[0] == '_' || object->is(OpKind::Starred) || object->is(OpKind::Keyword))
      return;
    const SourceFile &file = ctx.fileOf(unit);
    std::string obj(file.slice(object->range));
    std::string access = obj + "." + std::string(nameArg->text);
    if (builtin == "getattr") {
      d.fixIts.push_back({call->range, access, "replace with attribute access"});
      return;
    }
    // setattr/delattr only as whole statements.
    Op *stmt = nullptr;
    if (Region *r = call->parentRegion) {
      auto it = std::find(r->ops.begin(), r->ops.end(), call);
      if (it + 1 != r->ops.end() && (*(it + 1))->is(OpKind::ExprStmt) &&
          (*(it + 1))->operand(0) == call)
        stmt = *(it + 1);
    }
    if (!stmt)
      return;
    if (builtin == "setattr") {
      std::string value(file.slice(call->operand(3)->range));
      d.fixIts.push_back({call->range, access + " = " + value, "replace with an assignment"});
    } else {
      d.fixIts.push_back({call->range, "del " + access, "replace with a del statement"});
    }
  }

  void checkImport(MediatorContext &ctx, const CodeUnit &unit, Op *op) {
    std::string module;
    if (op->is(OpKind::Import)) {
      module = std::string(op->text);
    } else {
      if (op->number > 0) {
        // A relative import names a local package, which no server has.
        std::string rel(op->number, '.');
        rel += op->text2;
        ctx.report(Tier::Reject, unit, *op, DiagId::ModuleNotAllowed,
                   {ctx.subject(unit), rel, ctx.policy.name});
        return;
      }
      module = std::string(op->text2);
      if (op->text != "*")
        module += "." + std::string(op->text);
    }
    if (auto match = ctx.policy.prohibitedModule(module)) {
      Diagnostic *d = ctx.report(Tier::Reject, unit, *op, DiagId::ProhibitedImport,
                                 {ctx.subject(unit), match->module, match->category});
      if (d)
        removeLineFixIt(ctx.fileOf(unit), op, *d);
      return;
    }
    std::string_view root = op->is(OpKind::Import) ? op->text : op->text2;
    root = root.substr(0, root.find('.'));
    bool allowed = ctx.policy.isSafeModule(root) ||
                   std::find(ctx.policy.importAllowlist.begin(), ctx.policy.importAllowlist.end(),
                             root) != ctx.policy.importAllowlist.end() ||
                   root == "__future__";
    if (!allowed)
      ctx.report(Tier::Reject, unit, *op, DiagId::ModuleNotAllowed,
                 {ctx.subject(unit), root, ctx.policy.name});
  }

  // `import os` alone on its line: delete the line.
  void removeLineFixIt(const SourceFile &file, Op *op, Diagnostic &d) {
    uint32_t line = op->range.begin.line;
    std::string_view text = file.lineText(line);
    size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
      return;
    std::string_view stmt = text.substr(first);
    stmt = stmt.substr(0, stmt.find('#')); // a trailing comment goes with the line
    bool single = (stmt.substr(0, 7) == "import " || stmt.substr(0, 5) == "from ") &&
                  stmt.find(',') == std::string_view::npos &&
                  stmt.find(';') == std::string_view::npos &&
                  stmt.find('(') == std::string_view::npos;
    if (!single)
      return;
    SourcePos begin{line, 0, file.lineStart(line)};
    uint32_t endOffset = line + 1 < file.lineCount() ? file.lineStart(line + 1)
                                                     : uint32_t(file.text().size());
    d.fixIts.push_back({{begin, file.position(endOffset)}, "", "remove the import"});
  }
};

} // namespace

std::unique_ptr<Pass> createBlacklistPass() { return std::make_unique<BlacklistPass>(); }

} // namespace ivc
