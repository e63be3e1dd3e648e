//===- BackwardPass.cpp - Does a mediator differentiate? ------------------===//
//
// A mediator differentiates when its effective code (helpers and closures
// included) calls `.backward(...)` on any value, opens `with X.backward():`,
// reads `.grad`, or uses torch.autograd.backward/grad. Comments and strings
// are not code, so the words there never count.
//
//===----------------------------------------------------------------------===//
#include "ivc/passes/Pass.h"

namespace ivc {

using namespace ir;

namespace {

class BackwardPass : public Pass {
public:
  std::string_view name() const override { return "backward"; }

  void run(MediatorContext &ctx) override {
    for (const CodeUnit &unit : ctx.code.units) {
      ctx.code.forEachOp(unit, [&](Op *op) {
        if (ctx.facts.differentiate)
          return;
        if (op->is(OpKind::Attribute) &&
            (op->text == "backward" || (op->text == "grad" && op->ctx == Ctx::Load))) {
          ctx.facts.differentiate = true;
          return;
        }
        if (op->is(OpKind::Name) || op->is(OpKind::Attribute))
          for (const Value &v : unit.context->values->valuesOf(op))
            if (v.kind == ValueKind::Qualified &&
                (v.text == "torch.autograd.backward" || v.text == "torch.autograd.grad"))
              ctx.facts.differentiate = true;
      });
    }
  }
};

} // namespace

std::unique_ptr<Pass> createBackwardPass() { return std::make_unique<BackwardPass>(); }

} // namespace ivc
