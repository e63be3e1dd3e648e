//===- ClassifyPass.cpp - FAST, ISOLATE or REJECT, default-deny -----------===//
//
// Every op of the effective code goes to the rule for its kind; an op no rule
// confirms makes the mediator ISOLATE. The mediator's tier is the strongest
// reason found (the blacklist's errors are REJECT reasons too). A policy that
// allows no isolation turns ISOLATE into REJECT.
//
//===----------------------------------------------------------------------===//
#include "rules/Rules.h"

namespace ivc {

using namespace ir;
using namespace rules;

namespace {

class ClassifyPass : public Pass {
public:
  std::string_view name() const override { return "classify"; }

  void run(MediatorContext &m) override {
    llvm::DenseSet<const Op *> passed, annotations;
    for (const CodeUnit &unit : m.code.units) {
      passed.clear();
      annotations.clear();
      m.code.forEachOp(unit, [&](Op *op) {
        if (const Op *a = annotationOf(*op))
          addExpression(annotations, a);
        if (!op->is(OpKind::Call))
          return;
        for (size_t i = 1; i < op->operands.size(); ++i) {
          const Op *arg = op->operand(i);
          if (arg && (arg->is(OpKind::Keyword) || arg->is(OpKind::Starred) ||
                      arg->is(OpKind::KwSplat)))
            arg = arg->operand(0);
          if (arg)
            passed.insert(arg);
        }
      });
      RuleContext ctx{m, unit, *unit.context->values, passed, annotations, memo_};
      m.code.forEachOp(unit, [&](Op *op) { dispatch(*op, ctx); });
      checkTraceNameBindings(ctx);
    }
    checkSharedNames(m);
    checkCodeSize(m);
    if (m.facts.tier == Tier::Isolate && !m.policy.allowIsolate) {
      const Reason &first = *std::find_if(m.facts.reasons.begin(), m.facts.reasons.end(),
                                          [](const Reason &r) { return r.tier == Tier::Isolate; });
      const CodeUnit &where = m.code.units[0];
      SourceRange at = m.mediator.kind == MediatorKind::Invoke ? m.mediator.withOp->range
                                                               : m.trace.headerRange;
      std::string why(diagInfo(first.id).name);
      m.report(Tier::Reject, where, at, DiagId::IsolationNotAllowed,
               {m.subject(where), why, m.policy.name});
    }
  }

private:
  RuleMemo memo_; // one pass object per analysis

  static const Op *annotationOf(const Op &op) {
    if (op.is(OpKind::Param) || op.is(OpKind::AnnAssign))
      return op.operand(1);
    return op.is(OpKind::Returns) ? op.operand(0) : nullptr;
  }

  /// `root` and every op it is made of (iteratively: annotations nest as
  /// deeply as any expression).
  static void addExpression(llvm::DenseSet<const Op *> &set, const Op *root) {
    llvm::SmallVector<const Op *, 8> work{root};
    while (!work.empty()) {
      const Op *op = work.pop_back_val();
      if (!op || !set.insert(op).second)
        continue;
      for (const Op *o : op->operands)
        work.push_back(o);
    }
  }

  static void dispatch(Op &op, RuleContext &ctx) {
    checkModuleOperands(op, ctx);
    checkIteration(op, ctx);
    switch (op.kind) {
    case OpKind::Name:
      return checkName(op, ctx);
    case OpKind::Attribute:
      return checkAttribute(op, ctx);
    case OpKind::Call:
      checkCall(op, ctx);
      return checkCost(op, ctx);
    case OpKind::BinaryOp: case OpKind::AugAssign:
      checkIntegerDivision(op, ctx);
      return checkCost(op, ctx);
    case OpKind::Starred:
    case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp:
    case OpKind::List: case OpKind::Tuple: case OpKind::Set: case OpKind::Dict:
    case OpKind::FormatValue: case OpKind::Compare:
    // Where a value leaves the cost rule's sight (a range into a container).
    case OpKind::Return: case OpKind::CompYield: case OpKind::Param: case OpKind::Assign:
    case OpKind::NamedExpr:
    case OpKind::Assert: // its message is written out when it fails
      return checkCost(op, ctx);
    case OpKind::Subscript:
      checkSubscript(op, ctx);
      return checkCost(op, ctx);
    // Values and operators: confirmed as they are; their operands have rules of their own.
    case OpKind::Int: case OpKind::Float: case OpKind::Complex: case OpKind::Str:
    case OpKind::Bytes: case OpKind::True: case OpKind::False: case OpKind::None:
    case OpKind::Ellipsis: case OpKind::FString: case OpKind::Slice:
    case OpKind::UnaryOp: case OpKind::BoolOp:
    case OpKind::IfExp:
    case OpKind::GeneratorExp:
    case OpKind::Lambda:
    case OpKind::Keyword: case OpKind::KwSplat: case OpKind::Returns:
    case OpKind::WithItem: case OpKind::CompIf:
    // Statements the FAST subset has.
    case OpKind::ExprStmt: case OpKind::AnnAssign:
    case OpKind::If: case OpKind::Delete:
    case OpKind::Raise: case OpKind::Pass: case OpKind::Break: case OpKind::Continue:
    case OpKind::Module:
      return;
    default:
      return checkStatement(op, ctx);
    }
  }
};

} // namespace

std::unique_ptr<Pass> createClassifyPass() { return std::make_unique<ClassifyPass>(); }

} // namespace ivc
