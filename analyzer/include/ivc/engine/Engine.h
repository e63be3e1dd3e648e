//===- Engine.h - One analysis engine for the CLI, the LSP and the runtime ===//
//
// analyze() parses and lowers a file, resolves it, builds each mediator's
// effective code, runs every pass, and returns the diagnostics and the facts
// of every mediator. `ivc check`, `ivc plan`, `ivc explain`, `ivc lsp` and the
// Python binding's ivc.compile all call it.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_ENGINE_ENGINE_H
#define IVC_ENGINE_ENGINE_H

#include "ivc/frontend/Frontend.h"
#include "ivc/passes/Pass.h"
#include "ivc/policy/Policy.h"
#include "ivc/resolve/EffectiveCode.h"
#include "ivc/resolve/Manifest.h"

#include <atomic>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ivc {

struct UnitSummary; // engine/MediatorKeys.h

struct AnalysisOptions {
  Policy policy = ndifPolicy();
  std::shared_ptr<const Manifest> manifest; // bindings of the captured frame, if any
  /// Checked between mediators: once it is true, analyze() stops and returns
  /// null. The language server sets it when a newer version of the document
  /// makes the analysis pointless.
  const std::atomic<bool> *cancelled = nullptr;
  /// Keep what the next analysis of the same document needs to reuse this
  /// one's findings (the language server does; a one-shot `ivc check` need not).
  bool keepForReuse = false;
  /// Parse only the statements trace regions can reach
  /// (Frontend::parseReachable): the same verdicts and findings, without
  /// syntax errors in code no trace reaches. `ivc check`, `ivc plan`,
  /// `ivc explain` and ivc.compile set it; the language server, which keeps
  /// the whole tree for incremental re-parsing, does not.
  bool reachableCodeOnly = false;
};

/// What one mediator's passes reported, before the diagnostics of all
/// mediators are merged, and the key that says when it can be reused.
struct MediatorRecord {
  uint64_t key = 0;
  uint32_t unit = 0; // its top-level statement, in ParsedFile::units
  uint32_t trace = 0, mediator = 0;
  std::vector<Diagnostic> diagnostics;
};

struct Analysis {
  Policy policy;
  std::shared_ptr<ParsedFile> parsed;
  ModuleContext main;
  /// Functions lowered from the capture manifest, and their own bindings.
  std::vector<std::unique_ptr<ModuleContext>> manifestFunctions;
  std::vector<std::unique_ptr<Manifest>> manifestScopes;
  /// facts[trace][mediator]
  std::vector<std::vector<MediatorFacts>> facts;
  /// Every diagnostic, sorted by position; `suppressed[i]` says whether
  /// diagnostics[i] is silenced by an `# ivc: ignore[...]` comment.
  std::vector<Diagnostic> diagnostics;
  std::vector<bool> suppressed;

  /// With AnalysisOptions::keepForReuse: every mediator's record, and the
  /// key shared by all of them (policy, model names, ...).
  std::vector<MediatorRecord> records;
  std::unordered_map<uint64_t, uint32_t> recordByKey;
  uint64_t globalKey = 0;
  /// Per top-level statement, what it contributes to the keys.
  std::vector<std::shared_ptr<const UnitSummary>> unitSummaries;
  /// How many mediators' findings were reused from the previous analysis.
  size_t reusedMediators = 0;

  /// Where the time went, for benchmarks: parse and lower; scopes, values and
  /// effective code; the passes.
  struct Timings {
    double frontend = 0, resolve = 0, passes = 0; // seconds
  } timings;

  const SourceFile &source() const { return *parsed->source; }
  /// Errors that are not suppressed.
  bool hasErrors() const;
};

class Engine {
public:
  Engine() = default;
  /// Analyzes `source`. `oldTree` as in Frontend::parse. `previous`, an
  /// analysis of an earlier version of the same document, lets the engine
  /// reuse what the edits did not change; the result is the same without it.
  /// Null only when `options.cancelled` was set.
  std::unique_ptr<Analysis> analyze(std::shared_ptr<const SourceFile> source,
                                    const AnalysisOptions &options,
                                    const TSTree *oldTree = nullptr,
                                    const Analysis *previous = nullptr);

private:
  /// analyze() on the calling thread (which must have room: Stack.h).
  std::unique_ptr<Analysis> analyzeHere(std::shared_ptr<const SourceFile> source,
                                        const AnalysisOptions &options, const TSTree *oldTree,
                                        const Analysis *previous);

  std::unique_ptr<Frontend> frontend_;
  std::vector<std::string> frontendMethods_;
};

} // namespace ivc

#endif
