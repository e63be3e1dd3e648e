//===- Uses.cpp - Which op uses each op, and where each name is read -----===//
#include "ivc/resolve/Uses.h"

namespace ivc {

using namespace ir;

void UseIndex::build() {
  built_ = true;
  users_.assign(module_.numOps(), nullptr);
  shared_.assign(module_.numOps(), false);
  visited_.assign(module_.numOps(), false);
  if (const Op *root = module_.root())
    visit(root);
}

void UseIndex::visit(const Op *op) {
  if (!op || op->index >= visited_.size() || visited_[op->index])
    return;
  visited_[op->index] = true;
  if (op->is(OpKind::Name) && op->ctx == Ctx::Load)
    if (const Symbol *s = scopes_.resolve(op).symbol)
      reads_[s].push_back(op);
  for (const Op *operand : op->operands) {
    if (!operand || operand->index >= users_.size())
      continue;
    const Op *&user = users_[operand->index];
    shared_[operand->index] = shared_[operand->index] || (user && user != op);
    user = op;
    visit(operand);
  }
  for (const Region &r : op->regions)
    for (const Op *child : r.ops)
      visit(child);
}

const Op *UseIndex::userOf(const Op *op) {
  if (!built_)
    build();
  if (!op || op->index >= users_.size())
    return nullptr;
  return shared_[op->index] ? nullptr : users_[op->index];
}

llvm::ArrayRef<const Op *> UseIndex::readsOf(const Symbol *s) {
  if (!built_)
    build();
  auto it = reads_.find(s);
  return it == reads_.end() ? llvm::ArrayRef<const Op *>() : llvm::ArrayRef(it->second);
}

} // namespace ivc
