//===- UnitCopy.cpp - Copying an unchanged statement from the last parse --===//
//
// A top-level statement whose text did not change lowers to the same IR, only
// moved: every position shifts by the same number of lines and bytes (the
// statement starts at the same column), and its ops, value numbers and trace
// regions start at new positions in the module's numbering. Copying the ops
// costs a fraction of lowering them again from the syntax tree, and produces
// exactly what lowering would, numbering included.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

#include <algorithm>

namespace ivc {

using namespace ir;

namespace {

class UnitCopier {
public:
  UnitCopier(const ParsedFile &from, const LoweredUnit &unit, const SourceFile &to,
             Module &module, const LoweredUnit &at, uint32_t firstTrace)
      : from_(from), unit_(unit), to_(to), module_(module),
        lines_(int64_t(at.line) - int64_t(unit.line)),
        bytes_(int64_t(at.begin) - int64_t(unit.begin)), firstTrace_(firstTrace),
        copies_(module.allocateOps(unit.numOps)) {
    std::tie(firstOp_, firstValue_) = module.claimNumbers(unit.numOps, unit.numValues);
  }

  /// Copies `old` and everything in its regions; returns the copy.
  Op *copy(const Op &old) {
    Op *op = copyOf(old);
    *op = old;
    op->index = old.index - unit_.firstOp + firstOp_;
    if (old.cls() != OpClass::Stmt)
      op->id = old.id - unit_.firstValue + firstValue_;
    op->range = shift(old.range);
    op->text = string(old.text);
    op->text2 = string(old.text2);
    op->alias = string(old.alias);
    op->parentRegion = nullptr;
    if (old.is(OpKind::With) && old.withRole() == WithRole::Trace)
      op->number = old.number - unit_.firstTrace + firstTrace_;
    op->operands = module_.allocateOperands(old.operands.size());
    for (size_t i = 0; i < old.operands.size(); ++i)
      op->operands[i] = old.operands[i] ? copyOf(*old.operands[i]) : nullptr;
    if (!old.regions.empty()) {
      op->regions = module_.allocateRegions(old.regions.size());
      for (size_t i = 0; i < old.regions.size(); ++i)
        copyRegion(old.regions[i], op->regions[i], op);
    }
    if (old.is(OpKind::Global) || old.is(OpKind::Nonlocal))
      declarations_.push_back(op);
    return op;
  }

  /// Where the copy of an op of the unit is (or will be): the unit's ops are
  /// numbered contiguously, and so are their copies.
  Op *copyOf(const Op &old) const {
    uint32_t k = old.index - unit_.firstOp;
    return old.index >= unit_.firstOp && k < copies_.size() ? &copies_[k] : nullptr;
  }

  TraceRegion copy(const TraceRegion &old) const {
    TraceRegion t = old;
    t.index = old.index - unit_.firstTrace + firstTrace_;
    if (old.parent >= 0)
      t.parent = int(uint32_t(old.parent) - unit_.firstTrace + firstTrace_);
    t.withOp = copyOf(*old.withOp);
    t.call = old.call ? copyOf(*old.call) : nullptr;
    t.receiverOp = old.receiverOp ? copyOf(*old.receiverOp) : nullptr;
    for (SourceRange *r : {&t.range, &t.headerRange, &t.callRange, &t.bodyRange})
      *r = shift(*r);
    for (size_t i = 0; i < t.mediators.size(); ++i) {
      const Mediator &o = old.mediators[i];
      Mediator &m = t.mediators[i];
      m.withOp = copyOf(*o.withOp);
      m.call = o.call ? copyOf(*o.call) : nullptr;
      m.body = o.body ? &m.withOp->regions[size_t(o.body - o.withOp->regions.data())] : nullptr;
      m.header = o.header.empty() ? std::span<Op *>() : statementHeader(m.withOp);
      m.range = shift(o.range);
      m.bodyRange = shift(o.bodyRange);
    }
    return t;
  }

  /// The unit's `global` and `nonlocal` ops in the order they were created.
  std::vector<Op *> &declarations() {
    std::sort(declarations_.begin(), declarations_.end(),
              [](const Op *a, const Op *b) { return a->index < b->index; });
    return declarations_;
  }

private:
  void copyRegion(const Region &old, Region &region, Op *owner) {
    region.kind = old.kind;
    region.parent = owner;
    region.ops = module_.allocateOperands(old.ops.size());
    for (size_t i = 0; i < old.ops.size(); ++i) {
      region.ops[i] = copy(*old.ops[i]);
      region.ops[i]->parentRegion = &region;
    }
  }

  SourcePos shift(SourcePos p) const {
    return {uint32_t(p.line + lines_), p.column, uint32_t(p.offset + bytes_)};
  }
  SourceRange shift(SourceRange r) const { return {shift(r.begin), shift(r.end)}; }

  // A string of the old IR: a slice of the old text is the same slice of the
  // new one (the unit's text is unchanged); anything else was saved in the
  // old module's arena and is saved again in the new one.
  std::string_view string(std::string_view s) const {
    if (s.empty())
      return s;
    const std::string &old = from_.source->text();
    if (s.data() >= old.data() && s.data() + s.size() <= old.data() + old.size())
      return {to_.text().data() + (s.data() - old.data()) + bytes_, s.size()};
    return module_.save(s);
  }

  const ParsedFile &from_;
  const LoweredUnit &unit_;
  const SourceFile &to_;
  Module &module_;
  int64_t lines_, bytes_;
  uint32_t firstOp_ = 0, firstValue_ = 0, firstTrace_ = 0;
  std::span<Op> copies_; // by old index - unit_.firstOp
  std::vector<Op *> declarations_;
};

} // namespace

void Lowering::copyUnit(const ParsedFile &previous, const LoweredUnit &unit,
                        const LoweredUnit &at) {
  UnitCopier copier(previous, unit, source_, module_, at, uint32_t(traces_.size()));
  std::span<Op *> body =
      previous.module.root()->regions[0].ops.subspan(unit.firstBodyOp, unit.numBodyOps);
  for (Op *op : body)
    blocks_[0].push_back(copier.copy(*op));
  for (Op *op : copier.declarations())
    module_.noteScopeDeclaration(op);
  for (uint32_t i = 0; i < unit.numTraces; ++i)
    traces_.push_back(copier.copy(previous.traces[unit.firstTrace + i]));
}

} // namespace ivc
