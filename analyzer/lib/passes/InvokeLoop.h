//===- InvokeLoop.h - Invokes opened in a loop of the trace's body --------===//
//
// nnsight opens one invoke per turn of `for p in prompts: with
// tracer.invoke(p): ...`. A plan names the loop of such an invoke when a
// runtime can count its turns and bind its names without running the file's
// code; the runtime then runs one copy of the mediator per turn.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_PASSES_INVOKELOOP_H
#define IVC_PASSES_INVOKELOOP_H

#include "ivc/frontend/TraceRegion.h"
#include "ivc/resolve/Values.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace ivc {

/// Whether a `for` or `while` of the trace's body, at any depth, `holds`.
bool anyLoop(const TraceRegion &t, llvm::function_ref<bool(const ir::Op &loop)> holds);

/// Whether the invoke lies inside a `for` or `while` of its trace's body.
bool invokeInLoop(const TraceRegion &t, const Mediator &m);

/// The `for` a runtime expands the invoke over, or null: a statement of the
/// trace's body itself (not nested in another statement), synchronous, with
/// no `else`, whose body holds only invokes of the trace, whose target is
/// names (in tuples or lists) and whose iterable is a name, a slice of one
/// by integers, a display of literals, `name.items()` (`.keys()`,
/// `.values()`), or `range` (of names, integers and `len(name)`),
/// `enumerate` (with an integer start) and `zip` (the builtins) of such
/// iterables.
const ir::Op *expandableLoop(const TraceRegion &t, const Mediator &m, ValueAnalysis &values);

} // namespace ivc

#endif
