//===- Features.cpp - Requests answered from an analysis -----------------===//
#include "CodeActions.h"
#include "CodeLens.h"
#include "Diagnostics.h"
#include "Hover.h"
#include "Protocol.h"
#include "ServerImpl.h"

namespace ivc::lsp {

using llvm::json::Value;

void Server::Impl::registerFeatures() {
  onAnalysisRequest<DocumentParams>(
      "textDocument/diagnostic", [this](const AnalysisResult &r, const DocumentParams &p) {
        return diagnosticReport(r, client.encoding, p.previousResultId);
      });
  onAnalysisRequest<PositionParams>(
      "textDocument/hover", [this](const AnalysisResult &r, const PositionParams &p) {
        return hover(r, p.position, client.encoding);
      });
  onAnalysisRequest<DocumentParams>(
      "textDocument/codeLens", [this](const AnalysisResult &r, const DocumentParams &) {
        return Value(codeLenses(r, client.encoding));
      });
  onAnalysisRequest<CodeActionParams>(
      "textDocument/codeAction", [this](const AnalysisResult &r, const CodeActionParams &p) {
        return Value(codeActions(r, p, client));
      });
}

} // namespace ivc::lsp
