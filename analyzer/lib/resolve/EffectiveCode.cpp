//===- EffectiveCode.cpp - Reachability from a mediator -------------------===//
#include "ivc/resolve/EffectiveCode.h"

#include "ivc/frontend/Frontend.h"

#include "llvm/ADT/DenseSet.h"

namespace ivc {

using namespace ir;

namespace {

void walkRegions(const Op *op, const Mediator *skipFor, const std::function<void(Op *)> &f);

void walkOp(Op *op, const Mediator *skipFor, const std::function<void(Op *)> &f) {
  f(op);
  if (op->is(OpKind::With) && skipFor) {
    WithRole role = op->withRole();
    // A nested trace's body belongs to its own mediators; so does an invoke's
    // body when walking a trace's Body mediator.
    if (role == WithRole::Trace ||
        (role == WithRole::Invoke && skipFor->kind == MediatorKind::Body))
      return;
  }
  walkRegions(op, skipFor, f);
}

void walkRegions(const Op *op, const Mediator *skipFor, const std::function<void(Op *)> &f) {
  for (const Region &r : op->regions)
    for (Op *child : r.ops)
      walkOp(child, skipFor, f);
}

std::string unitName(const Op *op) {
  switch (op->kind) {
  case OpKind::FunctionDef: return std::string(op->text) + "()";
  case OpKind::ClassDef: return "class " + std::string(op->text);
  default: return "lambda";
  }
}

} // namespace

void EffectiveCode::forEachOp(const CodeUnit &unit, const std::function<void(Op *)> &f) const {
  if (unit.kind == CodeUnit::Kind::Mediator) {
    for (Op *op : mediator->header)
      f(op);
    for (Op *op : mediator->body->ops)
      walkOp(op, mediator, f);
    return;
  }
  // Definition-time code (decorators, defaults, annotations, bases) runs
  // wherever the definition is executed, so it counts as reached code too.
  if (!unit.op->is(OpKind::Lambda))
    for (Op *op : statementHeader(unit.op))
      f(op);
  f(unit.op);
  walkRegions(unit.op, nullptr, f);
}

EffectiveCode buildEffectiveCode(const Mediator &mediator, ModuleContext &main,
                                 const ManifestFunctionLoader &loadManifestFunction) {
  EffectiveCode code;
  code.mediator = &mediator;
  CodeUnit root;
  root.kind = CodeUnit::Kind::Mediator;
  root.name = "body";
  root.context = &main;
  code.units.push_back(std::move(root));

  llvm::DenseSet<const Op *> reached;
  for (size_t i = 0; i < code.units.size(); ++i) {
    // Copy what we need: push_back below may move units.
    CodeUnit unit = code.units[i];
    // Code defined inside the unit is walked with it, not reached again.
    code.forEachOp(unit, [&](Op *op) {
      if (op->is(OpKind::FunctionDef) || op->is(OpKind::ClassDef) || op->is(OpKind::Lambda))
        reached.insert(op);
    });
    code.forEachOp(unit, [&](Op *op) {
      if (!op->is(OpKind::Name) && !op->is(OpKind::Attribute))
        return;
      if (op->ctx != Ctx::Load)
        return;
      for (const Value &v : unit.context->values->valuesOf(op)) {
        if (v.kind != ValueKind::UserFunction && v.kind != ValueKind::UserClass &&
            v.kind != ValueKind::Lambda && v.kind != ValueKind::Instance)
          continue;
        ModuleContext *ctx = unit.context;
        Op *target = v.op;
        if (v.manifest) {
          auto [mctx, mop] = loadManifestFunction(*v.manifest);
          if (!mctx || !mop)
            continue;
          ctx = mctx;
          target = mop;
        }
        if (!target || !reached.insert(target).second)
          continue;
        CodeUnit next;
        next.kind = target->is(OpKind::FunctionDef) ? CodeUnit::Kind::Function
                    : target->is(OpKind::ClassDef)  ? CodeUnit::Kind::Class
                                                    : CodeUnit::Kind::Lambda;
        next.op = target;
        next.name = unitName(target);
        next.via = unit.via;
        next.via.push_back({unit.name, op->range.begin.line + 1, op->range,
                            unit.context->file ? unit.context->file->source.get() : nullptr});
        next.context = ctx;
        code.units.push_back(std::move(next));
      }
    });
  }
  return code;
}

} // namespace ivc
