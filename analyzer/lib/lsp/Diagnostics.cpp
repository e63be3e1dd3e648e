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
  // Nested values are assigned, not listed: json::Object's initializer list
  // copies them, and a large file has hundreds of diagnostics per publish.
  Object o{{"severity", lspSeverity(d.severity)},
           {"code", std::string(info.code)},
           {"source", "ivc"},
           {"message", d.message}};
  o["range"] = toJSON(toRange(file, d.range, e));
  Object href{{"href", ruleHelpUri(info.code)}};
  o["codeDescription"] = std::move(href);
  if (!d.notes.empty()) {
    Array related;
    for (const DiagNote &n : d.notes) {
      const SourceFile &in = n.file ? *n.file : file;
      Object location{{"uri", n.file ? pathToUri(n.file->path()) : uri}};
      location["range"] = toJSON(toRange(in, n.range, e));
      Object info{{"message", n.message}};
      info["location"] = std::move(location);
      related.push_back(std::move(info));
    }
    o["relatedInformation"] = std::move(related);
  }
  return o;
}

Array lspDiagnostics(const AnalysisResult &r, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  Array out;
  // json::Value's move is not noexcept, so a growing Array deep-copies every
  // diagnostic it holds; reserving once avoids that.
  out.reserve(a.diagnostics.size());
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
  // Assigned, not listed: Object's initializer list would copy the array.
  Object params{{"uri", r.uri}, {"version", r.version}};
  params["diagnostics"] = lspDiagnostics(r, e);
  return params;
}

Value diagnosticReport(const AnalysisResult &r, PositionEncoding e,
                       const std::optional<std::string> &previousResultId) {
  // Each analysis has its own seq: a new text or a new policy changes it.
  std::string id = std::to_string(r.seq);
  if (previousResultId && *previousResultId == id)
    return Object{{"kind", "unchanged"}, {"resultId", id}};
  Object report{{"kind", "full"}, {"resultId", id}};
  report["items"] = lspDiagnostics(r, e);
  return report;
}

} // namespace ivc::lsp
