//===- Uses.h - Which op uses each op, and where each name is read -------===//
//
// The IR links an op to its operands, not to its user. Whether anything can
// change a list bound to a name needs the other direction: every read of the
// name, and what each read feeds. One walk of the module answers, made the
// first time it is asked.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RESOLVE_USES_H
#define IVC_RESOLVE_USES_H

#include "ivc/ir/IR.h"
#include "ivc/resolve/Scopes.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace ivc {

class UseIndex {
public:
  UseIndex(const ir::Module &module, const ScopeTree &scopes)
      : module_(module), scopes_(scopes) {}

  /// The op that has `op` as an operand, or null: a statement, or an op
  /// that several ops share.
  const ir::Op *userOf(const ir::Op *op);
  /// The Name ops that read `s`, anywhere in the module.
  llvm::ArrayRef<const ir::Op *> readsOf(const Symbol *s);

private:
  void build();
  void visit(const ir::Op *op);

  const ir::Module &module_;
  const ScopeTree &scopes_;
  bool built_ = false;
  std::vector<const ir::Op *> users_; // by op index
  std::vector<bool> shared_;          // by op index: used by several ops
  std::vector<bool> visited_;         // by op index
  llvm::DenseMap<const Symbol *, std::vector<const ir::Op *>> reads_;
};

} // namespace ivc

#endif
