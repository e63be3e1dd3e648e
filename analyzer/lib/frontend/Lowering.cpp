//===- Lowering.cpp - CST access and IR emission shared by the lowering ---===//
#include "Lowering.h"

#include "ivc/frontend/Unicode.h"

#include "llvm/Support/xxhash.h"

namespace ivc {

using namespace ir;

Lowering::Lowering(const SourceFile &source, Module &module, std::vector<TraceRegion> &traces,
                   std::vector<Diagnostic> &diags, const FrontendOptions &options)
    : source_(source), module_(module), traces_(traces), diags_(diags), options_(options),
      grammar_(Grammar::python()) {}

Lowering::~Lowering() {
  if (cursorValid_)
    ts_tree_cursor_delete(&cursor_);
}

void Lowering::children(TSNode n, Children &out) {
  out.clear();
  if (!cursorValid_) {
    cursor_ = ts_tree_cursor_new(n);
    cursorValid_ = true;
  } else {
    ts_tree_cursor_reset(&cursor_, n);
  }
  if (!ts_tree_cursor_goto_first_child(&cursor_))
    return;
  do {
    TSNode c = ts_tree_cursor_current_node(&cursor_);
    Sym s = grammar_.sym(c);
    if (s == Sym::comment || s == Sym::line_continuation)
      continue;
    out.push_back({c, s, grammar_.field(ts_tree_cursor_current_field_id(&cursor_)),
                   ts_node_is_named(c)});
  } while (ts_tree_cursor_goto_next_sibling(&cursor_));
}

TSNode Lowering::fieldChild(const Children &cs, Field f) {
  for (const Child &c : cs)
    if (c.field == f)
      return c.node;
  return TSNode{};
}

SourceRange Lowering::rangeOf(TSNode n) const {
  TSPoint b = ts_node_start_point(n), e = ts_node_end_point(n);
  return {{b.row, b.column, ts_node_start_byte(n)}, {e.row, e.column, ts_node_end_byte(n)}};
}

SourceRange Lowering::span(TSNode first, TSNode last) const {
  return {rangeOf(first).begin, rangeOf(last).end};
}

std::string_view Lowering::text(TSNode n) const {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  return std::string_view(source_.text()).substr(b, e - b);
}

std::string_view Lowering::identifier(TSNode n) {
  std::string_view raw = text(n);
  if (isAscii(raw))
    return raw;
  return module_.save(normalizeIdentifier(raw));
}

std::string_view Lowering::dottedName(TSNode n) {
  if (sym(n) != Sym::dotted_name)
    return identifier(n);
  Children cs;
  children(n, cs);
  std::string joined;
  for (const Child &c : cs) {
    if (c.sym != Sym::identifier)
      continue;
    if (!joined.empty())
      joined += '.';
    joined += identifier(c.node);
  }
  return module_.save(joined);
}

Op *Lowering::emit(OpKind kind, SourceRange range, std::initializer_list<Op *> operands,
                   std::string_view text) {
  return emit(kind, range, llvm::ArrayRef<Op *>(operands.begin(), operands.size()), text);
}

Op *Lowering::emit(OpKind kind, SourceRange range, llvm::ArrayRef<Op *> operands,
                   std::string_view text) {
  Op *op = module_.create(kind, range);
  op->operands = module_.copy(operands);
  op->text = text;
  blocks_[depth_ - 1].push_back(op);
  return op;
}

void Lowering::openBlock() {
  if (depth_ == blocks_.size())
    blocks_.emplace_back();
  blocks_[depth_++].clear();
}

void Lowering::closeBlock(Region &region, RegionKind kind, Op *owner) {
  std::vector<Op *> &ops = blocks_[--depth_];
  region.kind = kind;
  region.parent = owner;
  region.ops = module_.copy(llvm::ArrayRef<Op *>(ops));
  for (Op *op : region.ops)
    op->parentRegion = &region;
}

std::span<Region> Lowering::regions(Op *owner, size_t n) {
  owner->regions = module_.allocateRegions(n);
  for (Region &r : owner->regions)
    r.parent = owner;
  return owner->regions;
}

void Lowering::error(DiagId id, SourceRange range, std::initializer_list<std::string_view> args) {
  diags_.push_back(makeDiagnostic(id, range, args));
}

void Lowering::lowerModule(TSNode root, std::vector<LoweredUnit> &units,
                           const ParsedFile *previous, llvm::ArrayRef<StatementCopy> copies) {
  // The whole file, whatever part of it the tree holds.
  uint32_t size = uint32_t(source_.text().size());
  Op *module = module_.create(OpKind::Module, {source_.position(0), source_.position(size)});
  regions(module, 1);
  openBlock();
  UnitIndex index;
  if (previous)
    for (const LoweredUnit &u : previous->units)
      if (u.reusable)
        index.emplace(u.hash, &u);
  // The copies go between the parsed statements, in the order of the text.
  size_t nextCopy = 0;
  auto copyBefore = [&](uint32_t offset) {
    for (; nextCopy < copies.size() && copies[nextCopy].at.begin < offset; ++nextCopy)
      units.push_back(copyStatement(*previous, copies[nextCopy]));
  };
  Children cs;
  children(root, cs);
  for (const Child &c : cs)
    if (c.named) {
      copyBefore(ts_node_start_byte(c.node));
      units.push_back(lowerUnit(c.node, previous, index));
    }
  copyBefore(UINT32_MAX);
  closeBlock(module->regions[0], RegionKind::Body, module);
  module_.setRoot(module);
}

void Lowering::startUnit(LoweredUnit &u) {
  u.firstOp = module_.numOps();
  u.firstValue = module_.numValues();
  u.firstTrace = uint32_t(traces_.size());
  u.firstBodyOp = uint32_t(blocks_[0].size());
}

void Lowering::endUnit(LoweredUnit &u) {
  u.numOps = module_.numOps() - u.firstOp;
  u.numValues = module_.numValues() - u.firstValue;
  u.numTraces = uint32_t(traces_.size()) - u.firstTrace;
  u.numBodyOps = uint32_t(blocks_[0].size()) - u.firstBodyOp;
}

LoweredUnit Lowering::copyStatement(const ParsedFile &previous, const StatementCopy &c) {
  LoweredUnit u = c.at;
  startUnit(u);
  copyUnit(previous, *c.from, u);
  u.reusable = true;
  u.copiedFrom = int32_t(c.from - previous.units.data());
  endUnit(u);
  return u;
}

LoweredUnit Lowering::lowerUnit(TSNode n, const ParsedFile *previous, const UnitIndex &index) {
  LoweredUnit u;
  SourceRange range = rangeOf(n);
  u.begin = range.begin.offset;
  u.end = range.end.offset;
  u.line = range.begin.line;
  u.column = range.begin.column;
  std::string_view unitText = text(n);
  u.hash = llvm::xxHash64(llvm::StringRef(unitText.data(), unitText.size()));
  u.symbol = uint16_t(sym(n));
  startUnit(u);

  // ERROR nodes a statement left for the next body make that body's
  // lowering depend on what came before it.
  bool errorsPending = !bodyErrors_.empty();
  const LoweredUnit *same = nullptr;
  if (previous && !errorsPending && !ts_node_has_error(n)) {
    auto [from, to] = index.equal_range(u.hash);
    for (auto it = from; it != to && !same; ++it) {
      const LoweredUnit &old = *it->second;
      if (old.symbol == u.symbol && old.column == u.column &&
          previous->source->text().compare(old.begin, old.end - old.begin, unitText) == 0)
        same = &old;
    }
  }
  if (same) {
    copyUnit(*previous, *same, u);
    u.reusable = true;
    u.copiedFrom = int32_t(same - previous->units.data());
  } else {
    size_t diagnostics = diags_.size();
    unsigned cuts = cuts_;
    lowerStatement(n);
    u.reusable = !ts_node_has_error(n) && sym(n) != Sym::future_import_statement &&
                 diags_.size() == diagnostics && cuts_ == cuts && !errorsPending &&
                 bodyErrors_.empty();
  }
  endUnit(u);
  return u;
}

} // namespace ivc
