//===- Diagnostics.h - ivc diagnostics as LSP diagnostics -----------------===//
#ifndef IVC_LIB_LSP_DIAGNOSTICS_H
#define IVC_LIB_LSP_DIAGNOSTICS_H

#include "Scheduler.h"

#include "ivc/lsp/Position.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace ivc::lsp {

/// LSP DiagnosticSeverity: error 1, warning 2, remark 3 (information).
int lspSeverity(Severity s);

/// One LSP Diagnostic: code, codeDescription (the rule's page), source "ivc",
/// and the notes as relatedInformation.
llvm::json::Value toLspDiagnostic(const Diagnostic &d, const SourceFile &file,
                                  const std::string &uri, PositionEncoding e);

/// Every diagnostic of the analyzed file that no `# ivc: ignore` silences.
llvm::json::Array lspDiagnostics(const AnalysisResult &r, PositionEncoding e);

/// textDocument/publishDiagnostics params for a fresh result, as JSON text.
std::string publishDiagnosticsParams(const AnalysisResult &r, PositionEncoding e);

/// textDocument/diagnostic: a full report, or "unchanged" when the client
/// already has the report of this analysis (`previousResultId`).
llvm::json::Value diagnosticReport(const AnalysisResult &r, PositionEncoding e,
                                   const std::optional<std::string> &previousResultId);

} // namespace ivc::lsp

#endif
