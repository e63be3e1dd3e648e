//===- Mediators.h - How hover and code lens name mediators and tiers -----===//
#ifndef IVC_LIB_LSP_MEDIATORS_H
#define IVC_LIB_LSP_MEDIATORS_H

#include "ivc/engine/Engine.h"

#include <string>
#include <vector>

namespace ivc::lsp {

/// "invoke 0", "invoke 1", ... for invokes (counted among the invokes),
/// "body" for a trace's statements outside its invokes, and "" for the body
/// of a trace that has no invoke (then it is the trace's only mediator).
std::string mediatorName(const TraceRegion &trace, const Mediator &m);

/// "FAST", "ISOLATE", "REJECT".
std::string tierLabel(Tier t);

/// The rule names of the reasons that decide `f.tier`, each once, in order.
std::vector<std::string> decidingRules(const MediatorFacts &f);

/// "ISOLATE (while-loop)", "REJECT (prohibited-module, private-attribute +1)",
/// "FAST": a tier and, briefly, why.
std::string tierSummary(const MediatorFacts &f);

/// The 0-based lines of a trace's `with ...:` header, and of an invoke's.
struct LineSpan {
  uint32_t first = 0, last = 0;
  bool contains(uint32_t line) const { return first <= line && line <= last; }
};
LineSpan traceHeaderLines(const SourceFile &file, const TraceRegion &t);
LineSpan invokeHeaderLines(const SourceFile &file, const Mediator &m);

} // namespace ivc::lsp

#endif
