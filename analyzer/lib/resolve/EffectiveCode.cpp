//===- EffectiveCode.cpp - Reachability from a mediator -------------------===//
#include "ivc/resolve/EffectiveCode.h"

#include "ivc/frontend/Frontend.h"

#include "llvm/ADT/DenseSet.h"

namespace ivc {

using namespace ir;

namespace {

void walkRegions(const Op *op, const Mediator *skipFor, std::vector<Op *> &out);

void walkOp(Op *op, const Mediator *skipFor, std::vector<Op *> &out) {
  out.push_back(op);
  if (op->is(OpKind::With) && skipFor) {
    WithRole role = op->withRole();
    // A nested trace's body belongs to its own mediators; so does an invoke's
    // body when walking a trace's Body mediator.
    if (role == WithRole::Trace ||
        (role == WithRole::Invoke && skipFor->kind == MediatorKind::Body))
      return;
  }
  walkRegions(op, skipFor, out);
}

void walkRegions(const Op *op, const Mediator *skipFor, std::vector<Op *> &out) {
  for (const Region &r : op->regions)
    for (Op *child : r.ops)
      walkOp(child, skipFor, out);
}

/// `op` and its operands, operands first (evaluation order).
void appendTree(Op *op, std::vector<Op *> &out) {
  if (!op)
    return;
  for (Op *o : op->operands)
    appendTree(o, out);
  out.push_back(op);
}

std::string unitName(const Op *op) {
  switch (op->kind) {
  case OpKind::FunctionDef: return std::string(op->text) + "()";
  case OpKind::ClassDef: return "class " + std::string(op->text);
  default: return "lambda";
  }
}

// An invoke opened in a `for` of its trace's body reads the loop's iterable
// as its own: a runtime that runs it per turn counts the turns from it
// (passes/InvokeLoop.h), so the names in it are the invoke's too (pinned
// constants, the caller's values). Only an expression without regions
// (no lambda or comprehension), which appendTree walks whole.
void appendLoopIterable(const Mediator &m, std::vector<Op *> &out) {
  const Op *loop = m.withOp ? m.withOp->parentOp() : nullptr;
  const Op *trace = loop ? loop->parentOp() : nullptr;
  if (m.kind != MediatorKind::Invoke || !loop || !loop->is(OpKind::For) || !trace ||
      !trace->is(OpKind::With) || trace->withRole() != WithRole::Trace)
    return;
  std::vector<Op *> iterable;
  appendTree(loop->operand(1), iterable);
  if (llvm::none_of(iterable, [](const Op *op) { return !op->regions.empty(); }))
    out.insert(out.end(), iterable.begin(), iterable.end());
}

} // namespace

void EffectiveCode::collectOps(CodeUnit &unit) const {
  std::vector<Op *> &out = unit.ops;
  out.clear();
  if (unit.kind == CodeUnit::Kind::Mediator) {
    appendLoopIterable(*mediator, out);
    out.insert(out.end(), mediator->header.begin(), mediator->header.end());
    for (Op *op : mediator->body->ops)
      walkOp(op, mediator, out);
    return;
  }
  // Definition-time code (decorators, defaults, annotations, bases) runs
  // wherever the definition is executed, so it counts as reached code too.
  if (!unit.op->is(OpKind::Lambda)) {
    std::span<Op *> header = statementHeader(unit.op);
    out.assign(header.begin(), header.end());
  }
  out.push_back(unit.op);
  walkRegions(unit.op, nullptr, out);
}

EffectiveCode buildEffectiveCode(const Mediator &mediator, ModuleContext &main,
                                 const ManifestFunctionLoader &loadManifestFunction) {
  EffectiveCode code;
  code.mediator = &mediator;
  CodeUnit root;
  root.kind = CodeUnit::Kind::Mediator;
  root.name = "body";
  root.context = &main;
  code.collectOps(root);
  code.units.push_back(std::move(root));

  llvm::DenseSet<const Op *> reached;
  for (size_t i = 0; i < code.units.size(); ++i) {
    // Index code.units[i] afresh each time: pushing a unit may move the vector.
    ModuleContext *context = code.units[i].context;
    // Code defined inside the unit is walked with it, not reached again.
    for (Op *op : code.units[i].ops)
      if (op->is(OpKind::FunctionDef) || op->is(OpKind::ClassDef) || op->is(OpKind::Lambda))
        reached.insert(op);
    llvm::DenseSet<const Op *> constants;
    for (size_t k = 0; k < code.units[i].ops.size(); ++k) {
      Op *op = code.units[i].ops[k];
      // (An item of a display reaches what it holds: `METRICS["ld"](x)`.)
      if (!op->is(OpKind::Name) && !op->is(OpKind::Attribute) && !op->is(OpKind::Subscript))
        continue;
      if (op->ctx != Ctx::Load)
        continue;
      // A pinned constant runs where the unit does (a plan definition): its
      // ops are the unit's too, judged and reaching what they name.
      if (const Symbol *s = op->is(OpKind::Name) ? context->scopes->resolve(op).symbol : nullptr)
        if (Op *value = const_cast<Op *>(context->values->pinnedConstant(*s));
            value && constants.insert(value).second)
          appendTree(value, code.units[i].ops);
      for (const Value &v : context->values->valuesOf(op)) {
        if (v.kind != ValueKind::UserFunction && v.kind != ValueKind::UserClass &&
            v.kind != ValueKind::Lambda && v.kind != ValueKind::Instance)
          continue;
        ModuleContext *ctx = context;
        Op *target = v.op;
        if (v.manifest) {
          auto [mctx, mop] = loadManifestFunction(*v.manifest);
          if (!mctx || !mop) {
            code.unreadable.insert(v.manifest);
            continue;
          }
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
        next.via = code.units[i].via;
        next.elidedSteps = code.units[i].elidedSteps;
        if (next.via.size() < CodeUnit::MaxViaSteps)
          next.via.push_back({code.units[i].name, op->range.begin.line + 1, op->range,
                              context->file ? context->file->source.get() : nullptr});
        else
          ++next.elidedSteps;
        next.context = ctx;
        code.collectOps(next);
        code.units.push_back(std::move(next));
      }
    }
  }
  return code;
}

} // namespace ivc
