//===- Diagnostics.cpp ----------------------------------------------------===//
#include "Diagnostics.h"

#include "JsonWriter.h"

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

namespace {

void writePosition(JsonWriter &w, const Position &p) {
  w.objectBegin().key("line").value(p.line).key("character").value(p.character).objectEnd();
}

void writeRange(JsonWriter &w, const Range &r) {
  w.objectBegin().key("start");
  writePosition(w, r.start);
  w.key("end");
  writePosition(w, r.end);
  w.objectEnd();
}

// The one definition of ivc's LSP Diagnostic; written as text because a
// publish of a large file has hundreds of them (see JsonWriter).
void writeDiagnostic(JsonWriter &w, const Diagnostic &d, const SourceFile &file,
                     const std::string &uri, PositionEncoding e) {
  const DiagInfo &info = d.info();
  w.objectBegin();
  w.key("range");
  writeRange(w, toRange(file, d.range, e));
  w.key("severity").value(int64_t(lspSeverity(d.severity)));
  w.key("code").value(info.code);
  w.key("codeDescription").objectBegin().key("href").value(ruleHelpUri(info.code)).objectEnd();
  w.key("source").value("ivc");
  w.key("message").value(d.message);
  if (!d.notes.empty()) {
    w.key("relatedInformation").arrayBegin();
    for (const DiagNote &n : d.notes) {
      const SourceFile &in = n.file ? *n.file : file;
      w.objectBegin().key("location").objectBegin();
      w.key("uri").value(n.file ? pathToUri(n.file->path()) : uri);
      w.key("range");
      writeRange(w, toRange(in, n.range, e));
      w.objectEnd().key("message").value(n.message).objectEnd();
    }
    w.arrayEnd();
  }
  w.objectEnd();
}

// Every diagnostic of the analyzed file that no `# ivc: ignore` silences.
void writeDiagnostics(JsonWriter &w, const AnalysisResult &r, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  w.arrayBegin();
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic &d = a.diagnostics[i];
    // A diagnostic in another file (a capture manifest's function) is not
    // this document's.
    if (a.suppressed[i] || d.file)
      continue;
    writeDiagnostic(w, d, a.source(), r.uri, e);
  }
  w.arrayEnd();
}

Value parsed(const std::string &text) {
  llvm::Expected<Value> v = llvm::json::parse(text);
  if (!v) { // the writer's own output: cannot happen
    llvm::consumeError(v.takeError());
    return nullptr;
  }
  return std::move(*v);
}

} // namespace

Value toLspDiagnostic(const Diagnostic &d, const SourceFile &file, const std::string &uri,
                      PositionEncoding e) {
  JsonWriter w;
  writeDiagnostic(w, d, file, uri, e);
  return parsed(w.text());
}

Array lspDiagnostics(const AnalysisResult &r, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  Array out;
  // json::Value's move is not noexcept, so a growing Array deep-copies what
  // it holds: reserve, and parse one diagnostic at a time (parsing the whole
  // array grows one element by element).
  out.reserve(a.diagnostics.size());
  for (size_t i = 0; i < a.diagnostics.size(); ++i)
    if (!a.suppressed[i] && !a.diagnostics[i].file)
      out.push_back(toLspDiagnostic(a.diagnostics[i], a.source(), r.uri, e));
  return out;
}

std::string publishDiagnosticsParams(const AnalysisResult &r, PositionEncoding e) {
  JsonWriter w;
  w.objectBegin().key("uri").value(r.uri).key("version").value(r.version).key("diagnostics");
  writeDiagnostics(w, r, e);
  w.objectEnd();
  return w.take();
}

Value diagnosticReport(const AnalysisResult &r, PositionEncoding e,
                       const std::optional<std::string> &previousResultId) {
  // Each analysis has its own seq: a new text or a new policy changes it.
  std::string id = std::to_string(r.seq);
  if (previousResultId && *previousResultId == id)
    return Object{{"kind", "unchanged"}, {"resultId", id}};
  // Assigned, not listed: Object's initializer list would copy the array.
  Object report{{"kind", "full"}, {"resultId", id}};
  report["items"] = lspDiagnostics(r, e);
  return report;
}

} // namespace ivc::lsp
