//===- Lowering.cpp - CST access and IR emission shared by the lowering ---===//
#include "Lowering.h"

#include "ivc/frontend/Unicode.h"

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

void Lowering::lowerModule(TSNode root) {
  Op *module = module_.create(OpKind::Module, rangeOf(root));
  regions(module, 1);
  openBlock();
  lowerBlockInto(root);
  closeBlock(module->regions[0], RegionKind::Body, module);
  module_.setRoot(module);
}

} // namespace ivc
