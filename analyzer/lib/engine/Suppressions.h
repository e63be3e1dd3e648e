//===- Suppressions.h - `# ivc: ignore[...]` comments (internal) ---------===//
#ifndef IVC_LIB_ENGINE_SUPPRESSIONS_H
#define IVC_LIB_ENGINE_SUPPRESSIONS_H

#include "ivc/engine/Engine.h"

#include <vector>

namespace ivc {

/// For each of `a.diagnostics`, whether a comment silences it: on its own line,
/// or on the `with` line of a trace whose mediators it concerns. A suppression
/// hides a diagnostic from ivc's output; it never changes a mediator's tier.
std::vector<bool> findSuppressed(const Analysis &a);

} // namespace ivc

#endif
