//===- CodeLens.h - Each mediator's tier above its trace ------------------===//
#ifndef IVC_LIB_LSP_CODELENS_H
#define IVC_LIB_LSP_CODELENS_H

#include "Scheduler.h"

#include "ivc/lsp/Position.h"

#include "llvm/Support/JSON.h"

namespace ivc::lsp {

/// One lens per trace region, on its `with` line: "ivc: FAST", or
/// "ivc: invoke 0 FAST · invoke 1 ISOLATE (while-loop)". The lens only
/// shows; its command does nothing.
llvm::json::Array codeLenses(const AnalysisResult &r, PositionEncoding e);

/// The title of the lens of trace `t`.
std::string lensTitle(const Analysis &a, const TraceRegion &t);

} // namespace ivc::lsp

#endif
