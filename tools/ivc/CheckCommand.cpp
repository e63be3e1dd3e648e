//===- CheckCommand.cpp - `ivc check PATH...` -----------------------------===//
//
// Analyzes files and directories in parallel on all cores and prints every
// diagnostic (text, JSON or SARIF). Exit status: 0 no errors, 1 errors, 2
// usage or I/O errors. With --verify, checks the diagnostics against the
// `# expected-...` comments in each file instead.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"
#include "Inputs.h"

#include "ivc/diag/JsonEmitter.h"
#include "ivc/diag/SarifEmitter.h"
#include "ivc/diag/TextEmitter.h"
#include "ivc/engine/Engine.h"
#include "ivc/engine/Verify.h"
#include "ivc/support/Stack.h"

#include "llvm/Support/Process.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <unistd.h>

namespace ivc::cli {

namespace {

struct FileResult {
  std::string path;
  std::unique_ptr<Analysis> analysis;
  bool ioError = false;
  VerifyResult verify;
};

struct Totals {
  unsigned errors = 0, warnings = 0, remarks = 0;
  unsigned fast = 0, isolate = 0, reject = 0;
};

void analyzeOne(FileResult &r, PolicyCache &policies, std::shared_ptr<const Manifest> manifest,
                bool verify) {
  thread_local Engine engine;
  std::optional<std::string> text = readFile(r.path);
  std::optional<Policy> policy = text ? policies.policyFor(r.path) : std::nullopt;
  if (!text || !policy) {
    r.ioError = true;
    return;
  }
  AnalysisOptions options;
  options.policy = std::move(*policy);
  options.manifest = std::move(manifest);
  options.reachableCodeOnly = true;
  r.analysis = engine.analyze(std::make_shared<SourceFile>(r.path, std::move(*text)), options);
  if (verify)
    r.verify = verifyDiagnostics(*r.analysis);
}

void count(const FileResult &r, Totals &t) {
  const Analysis &a = *r.analysis;
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    if (a.suppressed[i])
      continue;
    switch (a.diagnostics[i].severity) {
    case Severity::Error: ++t.errors; break;
    case Severity::Warning: ++t.warnings; break;
    case Severity::Remark: ++t.remarks; break;
    default: break;
    }
  }
  for (const auto &trace : a.facts)
    for (const MediatorFacts &f : trace)
      (f.tier == Tier::Fast ? t.fast : f.tier == Tier::Isolate ? t.isolate : t.reject)++;
}

std::string plural(unsigned n, const char *word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

} // namespace

int runCheck(const Options &opts) {
  if (opts.inputs.empty()) {
    llvm::errs() << "ivc: error: check needs at least one file or directory\n";
    return UsageOrIO;
  }
  std::shared_ptr<const Manifest> manifest;
  if (!loadManifest(opts, manifest))
    return UsageOrIO;
  std::vector<std::string> paths = collectPythonFiles(opts.inputs, opts);

  std::vector<FileResult> results(paths.size());
  for (size_t i = 0; i < paths.size(); ++i)
    results[i].path = paths[i];
  PolicyCache policies(opts.policy);
  // A --policy that cannot be read fails the command before any file is
  // read, rather than every file one by one.
  if (!opts.policy.empty() && !paths.empty() && !policies.policyFor(paths.front()))
    return UsageOrIO;
  bool progress = results.size() >= 20 && isatty(STDERR_FILENO) && opts.format == "text";
  std::atomic<size_t> next{0}, done{0};
  auto work = [&] {
    for (size_t i = next++; i < results.size(); i = next++) {
      analyzeOne(results[i], policies, manifest, opts.verify);
      size_t n = ++done;
      if (progress && (n % 8 == 0 || n == results.size())) {
        std::string line = "\r[" + std::to_string(n) + "/" + std::to_string(results.size()) +
                           "] checking";
        llvm::errs() << line;
      }
    }
  };
  {
    // Threads with the analysis's stack (Stack.h), made once: this one and
    // jobs - 1 more.
    unsigned jobs = opts.jobs ? opts.jobs : llvm::hardware_concurrency().compute_thread_count();
    std::vector<std::thread> helpers;
    for (size_t t = 1; t < std::min<size_t>(jobs, results.size()); ++t)
      helpers.emplace_back([&] { runWithAnalysisStack(work); });
    runWithAnalysisStack(work);
    for (std::thread &t : helpers)
      t.join();
  }
  if (progress)
    llvm::errs() << "\r\x1b[K";

  std::vector<std::string> unchecked;
  for (const FileResult &r : results)
    if (r.ioError)
      unchecked.push_back(r.path);
  bool ioError = !unchecked.empty();

  if (opts.verify) {
    bool ok = !ioError;
    for (const FileResult &r : results) {
      if (r.ioError)
        continue;
      if (!r.verify.ok) {
        llvm::outs() << r.path << ":\n" << r.verify.report;
        ok = false;
      }
    }
    return ioError ? UsageOrIO : ok ? Clean : Findings;
  }

  Totals totals;
  for (const FileResult &r : results)
    if (r.analysis)
      count(r, totals);

  if (opts.format == "json") {
    llvm::json::Array files;
    for (const FileResult &r : results) {
      if (!r.analysis)
        continue;
      llvm::json::Array diags;
      const Analysis &a = *r.analysis;
      for (size_t i = 0; i < a.diagnostics.size(); ++i)
        diags.push_back(diagnosticJson(a.diagnostics[i], a.source(), a.suppressed[i]));
      files.push_back(llvm::json::Object{{"path", utf8(r.path)},
                                         {"policy", utf8(a.policy.name)},
                                         {"diagnostics", std::move(diags)}});
    }
    llvm::json::Array uncheckedJson;
    for (const std::string &path : unchecked)
      uncheckedJson.push_back(utf8(path));
    llvm::json::Object out{{"version", IVC_VERSION},
                           {"files", std::move(files)},
                           {"unchecked", std::move(uncheckedJson)}};
    llvm::outs() << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << '\n';
  } else if (opts.format == "sarif") {
    std::string root = sourceRoot();
    std::vector<SarifFileResult> files;
    for (const FileResult &r : results)
      if (r.analysis)
        files.push_back({&r.analysis->source(), relativeUri(r.path, root),
                         r.analysis->diagnostics, r.analysis->suppressed});
    llvm::outs() << llvm::formatv("{0:2}", sarifLog(files, IVC_VERSION, root, unchecked)) << '\n';
  } else {
    TextEmitterOptions textOpts;
    textOpts.color = opts.color.value_or(llvm::outs().has_colors());
    for (const FileResult &r : results) {
      if (!r.analysis)
        continue;
      const Analysis &a = *r.analysis;
      for (size_t i = 0; i < a.diagnostics.size(); ++i) {
        const Diagnostic &d = a.diagnostics[i];
        if (a.suppressed[i] || (d.severity == Severity::Remark && !opts.remarks))
          continue;
        emitText(llvm::outs(), a.source(), d, textOpts);
      }
    }
    unsigned mediators = totals.fast + totals.isolate + totals.reject;
    llvm::outs() << "checked " << plural(unsigned(results.size() - unchecked.size()), "file")
                 << ": " << plural(totals.errors, "error") << ", "
                 << plural(totals.warnings, "warning") << "; " << plural(mediators, "mediator")
                 << ": " << totals.fast << " fast, " << totals.isolate << " isolate, "
                 << totals.reject << " reject";
    if (ioError)
      llvm::outs() << "; " << plural(unsigned(unchecked.size()), "file")
                   << " could not be checked (see the errors above)";
    llvm::outs() << '\n';
  }
  if (ioError)
    return UsageOrIO;
  return totals.errors ? Findings : Clean;
}

} // namespace ivc::cli
