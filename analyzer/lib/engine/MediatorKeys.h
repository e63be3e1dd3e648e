//===- MediatorKeys.h - When a mediator's findings can be reused ----------===//
//
// The passes' findings for a mediator depend on the text of the top-level
// statement it is in and on what the module-level names it reads are bound
// to, through any chain of bindings and helper functions. A mediator's key
// hashes exactly that, position-free:
//
//   key = H(global, statement text, which mediator of the statement,
//           for each name the statement reads: H(name, fingerprint(name)))
//
// where a module-level name's fingerprint hashes the text of its binding
// sites (`x = <value>`, a whole `def`, an import, ...) and, recursively, the
// fingerprints of the names those read (a cycle of names is hashed as one).
// Names read that have no module binding count by name alone, so binding one
// later (`eval = ...`) changes the key too. `global` hashes the policy, the
// names that mean the model and the tracer, and any star import.
//
// Names are matched by text wherever they are read, local or not: that can
// only make a key depend on more than it needs to, never on less.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_ENGINE_MEDIATORKEYS_H
#define IVC_LIB_ENGINE_MEDIATORKEYS_H

#include "ivc/frontend/Frontend.h"
#include "ivc/resolve/EffectiveCode.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ivc {

class MediatorKeys {
public:
  MediatorKeys(const ModuleContext &main, uint64_t global);

  /// The key of the `mediator`-th mediator (counting every trace region of
  /// the statement in order) of top-level statement `unit`.
  uint64_t key(size_t unit, uint32_t mediator);

private:
  void fingerprintNames();
  /// The module-level names read anywhere in `op` (operands and regions).
  void collectReads(const ir::Op *op, std::vector<std::string_view> &out);

  const ParsedFile &file_;
  const ScopeTree &scopes_;
  uint64_t global_;
  llvm::StringMap<uint64_t> fingerprints_; // module-level names
  /// Per statement, the hash of its text and the fingerprints of what it reads.
  llvm::DenseMap<size_t, uint64_t> unitKeys_;
  std::vector<uint32_t> visited_; // by op index: the walk that saw it last
  uint32_t walk_ = 0;
};

/// Hashes what every mediator's findings share: the policy, the manifest's
/// absence, the model and tracer names, star imports.
uint64_t globalReuseKey(const ModuleContext &main, const std::string &policyFingerprint);

} // namespace ivc

#endif
