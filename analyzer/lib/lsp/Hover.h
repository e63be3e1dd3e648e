//===- Hover.h - The tier and reasons of a trace or invoke ---------------===//
#ifndef IVC_LIB_LSP_HOVER_H
#define IVC_LIB_LSP_HOVER_H

#include "Scheduler.h"

#include "ivc/lsp/Position.h"

#include "llvm/Support/JSON.h"

namespace ivc::lsp {

/// On a `with ...trace(...)` header: every mediator of the trace with its
/// tier and the reason chain (`via`) of each reason; on a `with
/// tracer.invoke(...)` header: that mediator. Null elsewhere.
llvm::json::Value hover(const AnalysisResult &r, Position at, PositionEncoding e);

} // namespace ivc::lsp

#endif
