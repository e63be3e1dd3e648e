//===- Reuse.h - Moving a previous analysis's findings to where they are now ===//
//
// A mediator whose key (MediatorKeys.h) is unchanged has the same findings as
// before, except for positions: its statement, and the helpers it reaches,
// may have moved. Every position in the findings is moved by the shift of the
// top-level statement that holds it; a position in a statement that was not
// copied unchanged (or was copied twice) cannot be moved, and the mediator is
// analyzed again.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_ENGINE_REUSE_H
#define IVC_LIB_ENGINE_REUSE_H

#include "ivc/frontend/Frontend.h"
#include "ivc/passes/Pass.h"

#include <optional>
#include <vector>

namespace ivc {

class PositionMap {
public:
  PositionMap(const ParsedFile &previous, const ParsedFile &current);

  /// Moves the findings of a mediator of statement `fromUnit` (previous) to
  /// statement `toUnit` (current), in place. False when some position cannot
  /// be moved; the findings are then partly moved and must be dropped.
  bool move(uint32_t fromUnit, uint32_t toUnit, MediatorFacts &facts,
            std::vector<Diagnostic> &diagnostics) const;

private:
  std::optional<SourcePos> map(SourcePos pos) const;
  bool map(SourceRange &r) const;
  const SourceFile *mapFile(const SourceFile *f) const;

  const ParsedFile &previous_;
  const ParsedFile &current_;
  /// By previous statement: the current statement copied from it, or -1
  /// (not copied, or copied more than once).
  std::vector<int32_t> movedTo_;
  // The mediator's own statement, for the call in progress.
  mutable uint32_t ownFrom_ = 0, ownTo_ = 0;
};

} // namespace ivc

#endif
