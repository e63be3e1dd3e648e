//===- SarifEmitter.cpp ---------------------------------------------------===//
#include "ivc/diag/SarifEmitter.h"

#include "ivc/diag/JsonEmitter.h"
#include "ivc/diag/RuleDocs.h"
#include "ivc/support/Uri.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace ivc {

namespace {

std::string_view level(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  default: return "note";
  }
}

// SARIF counts columns in UTF-16 code units by default, 1-based. (No
// charOffset: it would count UTF-16 code units from the file's start too,
// and lines and columns say the same.)
llvm::json::Value region(const SourceFile &file, const SourceRange &r) {
  llvm::json::Object o{{"startLine", int64_t(r.begin.line) + 1},
                       {"startColumn", int64_t(file.utf16Column(r.begin.line, r.begin.column)) + 1},
                       {"endLine", int64_t(r.end.line) + 1},
                       {"endColumn", int64_t(file.utf16Column(r.end.line, r.end.column)) + 1}};
  return o;
}

llvm::json::Value location(const std::string &uri, const SourceFile &file, const SourceRange &r) {
  return llvm::json::Object{
      {"physicalLocation",
       llvm::json::Object{{"artifactLocation",
                           llvm::json::Object{{"uri", percentEncodePath(uri)}, {"uriBaseId", "%SRCROOT%"}}},
                          {"region", region(file, r)}}}};
}

// Stable across line moves: the rule, the file, the trimmed line text and the message.
std::string fingerprint(const std::string &uri, const SourceFile &file, const Diagnostic &d) {
  std::string_view line = file.lineText(d.range.begin.line);
  size_t b = line.find_first_not_of(" \t");
  line = b == std::string_view::npos ? std::string_view() : line.substr(b);
  std::string key = std::string(d.info().code) + "\n" + uri + "\n" + std::string(line) + "\n" +
                    d.message;
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(key));
  return llvm::toHex(digest, true).substr(0, 32);
}

llvm::json::Array rules() {
  llvm::json::Array out;
  for (const DiagInfo &info : allDiags()) {
    std::string full(ruleDocSection(info.code, "What it does"));
    std::string why(ruleDocSection(info.code, "Why is this bad"));
    if (!why.empty())
      full += "\n\n" + why;
    if (full.empty())
      full = std::string(info.summary);
    std::string markdown(ruleDoc(info.code));
    llvm::json::Object rule{
        {"id", std::string(info.code)},
        {"name", std::string(info.name)},
        {"shortDescription", llvm::json::Object{{"text", std::string(info.summary)}}},
        {"fullDescription", llvm::json::Object{{"text", full}}},
        {"helpUri", ruleHelpUri(info.code)},
        {"help", llvm::json::Object{{"text", full}, {"markdown", markdown.empty() ? full : markdown}}},
        {"defaultConfiguration", llvm::json::Object{{"level", std::string(level(info.severity))}}},
    };
    out.push_back(std::move(rule));
  }
  return out;
}

} // namespace

llvm::json::Value sarifLog(const std::vector<SarifFileResult> &files, std::string_view version,
                           std::string_view srcRoot, const std::vector<std::string> &unchecked) {
  llvm::json::Array results;
  for (const SarifFileResult &f : files) {
    for (size_t i = 0; i < f.diagnostics.size(); ++i) {
      const Diagnostic &d = f.diagnostics[i];
      const SourceFile &file = d.file ? *d.file : *f.file;
      std::string uri = d.file ? d.file->path() : f.uri;
      llvm::json::Array related;
      for (size_t k = 0; k < d.notes.size(); ++k) {
        const DiagNote &n = d.notes[k];
        const SourceFile &nf = n.file ? *n.file : file;
        llvm::json::Object loc = std::move(*location(n.file ? n.file->path() : uri, nf, n.range)
                                                .getAsObject());
        loc["id"] = int64_t(k);
        loc["message"] = llvm::json::Object{{"text", utf8(n.message)}};
        related.push_back(std::move(loc));
      }
      llvm::json::Array fixes;
      for (const FixIt &fx : d.fixIts)
        fixes.push_back(llvm::json::Object{
            {"description", llvm::json::Object{{"text", utf8(fx.title)}}},
            {"artifactChanges",
             llvm::json::Array{llvm::json::Object{
                 {"artifactLocation", llvm::json::Object{{"uri", percentEncodePath(uri)}, {"uriBaseId", "%SRCROOT%"}}},
                 {"replacements",
                  llvm::json::Array{llvm::json::Object{
                      {"deletedRegion", region(file, fx.range)},
                      {"insertedContent", llvm::json::Object{{"text", utf8(fx.replacement)}}}}}}}}}});
      llvm::json::Object result{
          {"ruleId", std::string(d.info().code)},
          {"ruleIndex", int64_t(d.id)},
          {"level", std::string(level(d.severity))},
          {"message", llvm::json::Object{{"text", utf8(d.message)}}},
          {"locations", llvm::json::Array{location(uri, file, d.range)}},
          {"partialFingerprints",
           llvm::json::Object{{"ivcFingerprint/v1", fingerprint(uri, file, d)}}},
      };
      if (!related.empty())
        result["relatedLocations"] = std::move(related);
      if (!fixes.empty())
        result["fixes"] = std::move(fixes);
      if (i < f.suppressed.size() && f.suppressed[i])
        result["suppressions"] = llvm::json::Array{llvm::json::Object{{"kind", "inSource"}}};
      results.push_back(std::move(result));
    }
  }
  std::string root(srcRoot);
  if (root.empty() || root.back() != '/')
    root += '/';
  llvm::json::Object run{
      {"tool",
       llvm::json::Object{{"driver", llvm::json::Object{{"name", "ivc"},
                                                        {"version", std::string(version)},
                                                        {"semanticVersion", std::string(version)},
                                                        {"informationUri", ruleHelpUri("")},
                                                        {"rules", rules()}}}}},
      {"results", std::move(results)},
      {"columnKind", "utf16CodeUnits"},
      {"originalUriBaseIds",
       llvm::json::Object{{"%SRCROOT%", llvm::json::Object{{"uri", "file://" + percentEncodePath(root)}}}}},
  };
  // A scan that skipped files must not look like a clean one.
  llvm::json::Array notes;
  for (const std::string &path : unchecked)
    notes.push_back(llvm::json::Object{
        {"level", "error"},
        {"message", llvm::json::Object{{"text", utf8("could not check " + path)}}}});
  run["invocations"] = llvm::json::Array{llvm::json::Object{
      {"executionSuccessful", unchecked.empty()}, {"toolExecutionNotifications", std::move(notes)}}};
  return llvm::json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", llvm::json::Array{std::move(run)}},
  };
}

} // namespace ivc
