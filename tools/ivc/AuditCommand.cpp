//===- AuditCommand.cpp - `ivc audit`: prove the worker sandbox refuses ---===//
//
// Runs the sandbox canaries (runtime/worker/Canaries.cpp) in locked-down
// children of ivc-worker and prints one line per canary. Exit status: 0 when
// every canary was refused the expected way, 1 when one was not, 2 when the
// audit could not run. IVC_WORKER overrides the worker binary.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"

#ifdef IVC_HAVE_RUNTIME
#include "ivc/runtime/host/Audit.h"
#endif

namespace ivc::cli {

int runAudit(const Options &opts) {
  if (!opts.inputs.empty()) {
    llvm::errs() << "ivc: error: audit takes no inputs\n";
    return UsageOrIO;
  }
#ifdef IVC_HAVE_RUNTIME
  runtime::WorkerOptions worker;
  worker.workerPath = runtime::defaultWorkerPath();
  // The configuration workers get by default: executable memory allowed for
  // oneDNN's JIT (the W^X canary is then reported as skipped).
  runtime::AuditReport report = runtime::runAudit(worker, 60000, /*allowJit=*/true);
  for (const std::string &line : report.lines)
    llvm::outs() << line << '\n';
  llvm::outs().flush();
  if (!report.error.empty()) {
    llvm::errs() << "ivc: error: audit of " << worker.workerPath << ": " << report.error << '\n';
    return report.total ? Findings : UsageOrIO;
  }
  return report.passed ? Clean : Findings;
#else
  llvm::errs() << "ivc: error: this ivc was built without the runtime (IVC_BUILD_RUNTIME=OFF)\n";
  return UsageOrIO;
#endif
}

} // namespace ivc::cli
