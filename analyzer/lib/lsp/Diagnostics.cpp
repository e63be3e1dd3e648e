//===- Diagnostics.cpp ----------------------------------------------------===//
#include "Diagnostics.h"

#include "ivc/diag/RuleDocs.h"
#include "ivc/lsp/Uri.h"

namespace ivc::lsp {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

int lspSeverity(Severity s) {
  switch (s) {
  case Severity::Error: return 1;
  case Severity::Warning: return 2;
  case Severity::Remark: return 3;
  case Severity::Note: return 4;
  }
  return 3;
}

Value toLspDiagnostic(const Diagnostic &d, const SourceFile &file, const std::string &uri,
                      PositionEncoding e) {
  const DiagInfo &info = d.info();
  Object o{{"range", toJSON(toRange(file, d.range, e))},
           {"severity", lspSeverity(d.severity)},
           {"code", std::string(info.code)},
           {"codeDescription", Object{{"href", ruleHelpUri(info.code)}}},
           {"source", "ivc"},
           {"message", d.message}};
  if (!d.notes.empty()) {
    Array related;
    for (const DiagNote &n : d.notes) {
      const SourceFile &in = n.file ? *n.file : file;
      related.push_back(Object{
          {"location",
           Object{{"uri", n.file ? pathToUri(n.file->path()) : uri},
                  {"range", toJSON(toRange(in, n.range, e))}}},
          {"message", n.message}});
    }
    o["relatedInformation"] = std::move(related);
  }
  return o;
}

Array lspDiagnostics(const AnalysisResult &r, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  Array out;
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic &d = a.diagnostics[i];
    // A diagnostic in another file (a capture manifest's function) is not
    // this document's.
    if (a.suppressed[i] || d.file)
      continue;
    out.push_back(toLspDiagnostic(d, a.source(), r.uri, e));
  }
  return out;
}

Value publishDiagnosticsParams(const AnalysisResult &r, PositionEncoding e) {
  return Object{{"uri", r.uri}, {"version", r.version}, {"diagnostics", lspDiagnostics(r, e)}};
}

Value diagnosticReport(const AnalysisResult &r, PositionEncoding e,
                       const std::optional<std::string> &previousResultId) {
  // The generation names the analyzed text; a policy change re-analyzes the
  // same generation, so the id also carries the policy.
  std::string id = std::to_string(r.generation) + ":" + r.analysis->policy.fingerprint();
  if (previousResultId && *previousResultId == id)
    return Object{{"kind", "unchanged"}, {"resultId", id}};
  return Object{{"kind", "full"}, {"resultId", id}, {"items", lspDiagnostics(r, e)}};
}

} // namespace ivc::lsp
