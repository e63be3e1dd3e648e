//===- IR.cpp -------------------------------------------------------------===//
#include "ivc/ir/IR.h"

#include <algorithm>
#include <cstring>

namespace ivc::ir {

std::string_view mnemonic(OpKind kind) {
  switch (kind) {
#define IVC_OP(Name, Mnemonic, Class)                                                              \
  case OpKind::Name:                                                                               \
    return Mnemonic;
#include "ivc/ir/Ops.def"
  }
  return "?";
}

OpClass opClass(OpKind kind) {
  switch (kind) {
#define IVC_OP(Name, Mnemonic, Class)                                                              \
  case OpKind::Name:                                                                               \
    return OpClass::Class;
#include "ivc/ir/Ops.def"
  }
  return OpClass::Stmt;
}

std::string_view regionName(RegionKind kind) {
  switch (kind) {
  case RegionKind::Body: return "body";
  case RegionKind::Then: return "then";
  case RegionKind::Else: return "else";
  case RegionKind::Except: return "except";
  case RegionKind::Finally: return "finally";
  case RegionKind::Case: return "case";
  case RegionKind::Clauses: return "clauses";
  }
  return "?";
}

Region *Op::region(RegionKind k) {
  for (Region &r : regions)
    if (r.kind == k)
      return &r;
  return nullptr;
}

bool Op::isConstant() const {
  switch (kind) {
  case OpKind::Int: case OpKind::Float: case OpKind::Complex: case OpKind::Str:
  case OpKind::Bytes: case OpKind::True: case OpKind::False: case OpKind::None:
  case OpKind::Ellipsis:
    return true;
  default:
    return false;
  }
}

std::span<Op *> statementHeader(const Op *stmt) {
  Region *r = stmt->parentRegion;
  if (!r)
    return {};
  auto it = std::find(r->ops.begin(), r->ops.end(), stmt);
  auto begin = it;
  while (begin != r->ops.begin() && (*(begin - 1))->cls() != OpClass::Stmt)
    --begin;
  return {begin, it};
}

bool makesContainer(const Op *op) {
  return op && (op->is(OpKind::List) || op->is(OpKind::Dict) || op->is(OpKind::Set) ||
                op->is(OpKind::ListComp) || op->is(OpKind::DictComp) ||
                op->is(OpKind::SetComp));
}

const Op *keywordArgument(const Op &call, std::string_view name) {
  for (size_t i = 1; i < call.operands.size(); ++i)
    if (const Op *a = call.operand(i); a && a->is(OpKind::Keyword) && a->text == name)
      return a->operand(0);
  return nullptr;
}

const Op *positionalArgument(const Op &call, size_t i) {
  size_t seen = 0;
  for (size_t k = 1; k < call.operands.size(); ++k) {
    const Op *a = call.operand(k);
    if (!a || a->is(OpKind::Keyword) || a->is(OpKind::KwSplat))
      continue;
    if (a->is(OpKind::Starred))
      return nullptr; // positions after *args are unknown
    if (seen++ == i)
      return a;
  }
  return nullptr;
}

const Op *argument(const Op &call, size_t i, std::string_view name) {
  const Op *a = keywordArgument(call, name);
  return a ? a : positionalArgument(call, i);
}

std::vector<const Op *> returnsOf(const Op &function) {
  std::vector<const Op *> out;
  std::vector<const Region *> work;
  for (const Region &r : function.regions)
    work.push_back(&r);
  while (!work.empty()) {
    const Region *region = work.back();
    work.pop_back();
    for (const Op *op : region->ops) {
      if (op->is(OpKind::Return))
        out.push_back(op);
      if (op->is(OpKind::FunctionDef) || op->is(OpKind::Lambda) || op->is(OpKind::ClassDef))
        continue; // a nested scope's returns are its own
      for (const Region &r : op->regions)
        work.push_back(&r);
    }
  }
  return out;
}

Op *Module::create(OpKind kind, SourceRange range) {
  Op *op = new (arena_.Allocate<Op>()) Op();
  op->kind = kind;
  op->range = range;
  op->index = nextIndex_++;
  OpClass c = opClass(kind);
  if (c != OpClass::Stmt)
    op->id = nextId_++;
  return op;
}

std::string_view Module::save(std::string_view s) {
  if (s.empty())
    return {};
  // Allocated inline rather than through llvm::StringSaver, whose out-of-line
  // code in libLLVM would disagree with ASan builds about the arena's poisoning.
  char *mem = arena_.Allocate<char>(s.size());
  std::memcpy(mem, s.data(), s.size());
  return {mem, s.size()};
}

std::span<Region> Module::allocateRegions(size_t n) {
  Region *mem = arena_.Allocate<Region>(n);
  for (size_t i = 0; i < n; ++i)
    new (&mem[i]) Region();
  return {mem, n};
}

} // namespace ivc::ir
