//===- MediatorKeys.h - When a mediator's findings can be reused ----------===//
//
// The passes' findings for a mediator depend on the text of the top-level
// statement it is in and on what the module-level names it reads are bound
// to, through any chain of bindings and helper functions. A mediator's key
// hashes exactly that, position-free:
//
//   key = H(global, statement text, which mediator of the statement,
//           for each name the statement reads:
//             H(name, fingerprint(name), bindings of name before the statement))
//
// where a module-level name's fingerprint hashes the text of its binding
// sites (`x = <value>`, a whole `def`, an import, ...) in source order and,
// recursively, the fingerprints of the names those read (a cycle of names is
// hashed as one). Each read is also hashed with how many bindings of its
// name come before the statement that reads it: a builtin shadowed only
// after a trace is still the builtin there.
// A name bound to a list, set or dict display also hashes the text of every
// statement that reads it: the analysis reads such a display's items only
// while no read anywhere may change it (`fns[0] = f`).
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

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace ivc {

/// What one top-level statement contributes to the keys, position-free: a
/// statement copied unchanged shares its predecessor's summary. Names are
/// hashed (xxHash64 of the text).
struct UnitSummary {
  struct Binding {
    uint64_t name = 0, text = 0;
    std::vector<uint64_t> reads; // sorted, unique
    bool mutableDisplay = false; // `name = [...]`, a set or a dict display
  };
  std::vector<Binding> bindings; // module-level bindings made in the statement
  std::vector<uint64_t> reads;   // names read anywhere in it (sorted, unique)
};
using UnitSummaries = std::vector<std::shared_ptr<const UnitSummary>>;

class MediatorKeys {
public:
  /// `previous`: the summaries of the parse the statements were copied
  /// from (empty when none); this analysis's are left in `summaries`.
  MediatorKeys(const ModuleContext &main, uint64_t global, const UnitSummaries &previous,
               UnitSummaries &summaries);

  /// The key of the `mediator`-th mediator (counting every trace region of
  /// the statement in order) of top-level statement `unit`.
  uint64_t key(size_t unit, uint32_t mediator) const;

private:
  void summarize(const UnitSummaries &previous, UnitSummaries &summaries);
  void fingerprintNames(const UnitSummaries &summaries);
  /// How many module-level bindings of `name` are made before statement `unit`.
  uint64_t bindingsBefore(uint64_t name, size_t unit) const;
  /// The names read anywhere in `op` (operands and regions), hashed.
  void collectReads(const ir::Op *op, std::vector<uint64_t> &out);

  const ParsedFile &file_;
  const ScopeTree &scopes_;
  uint64_t global_;
  llvm::DenseMap<uint64_t, uint64_t> fingerprints_; // by name hash: module-level names
  llvm::DenseMap<uint64_t, std::vector<uint32_t>> bindingUnits_; // by name: statements, in order
  std::vector<uint64_t> unitKeys_;                   // per statement
  std::vector<uint32_t> visited_; // by op index: the walk that saw it last
  uint32_t walk_ = 0;
};

/// Hashes what every mediator's findings share: the policy, the manifest's
/// absence, the model and tracer names, star imports.
uint64_t globalReuseKey(const ModuleContext &main, const std::string &policyFingerprint);

} // namespace ivc

#endif
