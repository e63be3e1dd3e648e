//===- CallerGuards.h - FAST when the caller's values are small -----------===//
//
// A mediator that is ISOLATE only because of values the caller supplies
// with no kind the file fixes (`def steer(prompt, layer, coeff, k): ...`:
// `torch.zeros(k, 4)`, `"-" * width`, `alpha * 100`), or because of the
// shapes of the caller's tensors (`torch.eye(v.shape[0])`), is analyzed
// again as if those values were ints or floats of at most a bound, or
// tensors of at most that many elements. When that is FAST, the plan says
// so with `guards`, the fewest names that keep it FAST, and a runtime
// checks the caller's values before running it in process: any other value
// runs it ISOLATE. Internal to the engine.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_ENGINE_CALLERGUARDS_H
#define IVC_LIB_ENGINE_CALLERGUARDS_H

#include "ivc/passes/Pass.h"

#include <functional>
#include <memory>

namespace ivc {

/// What the guarded analysis needs: a fresh analysis context of the file
/// (its values unshared with the first analysis's), and the effective code
/// of the mediator in it.
struct GuardedAnalysis {
  std::function<std::unique_ptr<ModuleContext>()> freshContext;
  std::function<EffectiveCode(ModuleContext &)> effectiveCode;
  /// The code the first analysis saw (which names it reads as tensors).
  const EffectiveCode &analyzed;
};

/// For a mediator that `facts` rate ISOLATE: when assuming some of its
/// free names to be small numbers or small tensors makes it FAST, replaces
/// `facts` with that analysis's (their `guards` set) and adds a remark
/// (IVC313) to `diagnostics`, which keep the reasons it is ISOLATE
/// otherwise. Returns whether it did.
bool guardCallerValues(const Policy &policy, const TraceRegion &trace, const Mediator &m,
                       const ParsedFile &main, const GuardedAnalysis &analysis,
                       MediatorFacts &facts, std::vector<Diagnostic> &diagnostics);

} // namespace ivc

#endif
