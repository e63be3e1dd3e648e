//===- main.cpp - The ivc driver ------------------------------------------===//
#include "Cli.h"

#include "ivc/support/Stack.h"

using namespace ivc::cli;

namespace {

int dispatch(Options &opts) {
  if (opts.command == "dump-ir")
    return runDumpIr(opts);
  if (opts.command == "check")
    return runCheck(opts);
  if (opts.command == "plan")
    return runPlan(opts);
  if (opts.command == "explain")
    return runExplain(opts);
  if (opts.command == "audit")
    return runAudit(opts);
  if (opts.command == "lsp")
    return runLsp(opts);
  llvm::errs() << "ivc: error: unknown command '" << opts.command << "'\n";
  return UsageOrIO;
}

} // namespace

int main(int argc, char **argv) {
  exitWhenOutOfMemory();
  Options opts;
  if (std::optional<int> exit = parse(argc, argv, opts))
    return *exit;
  // The IR printer and the language server's features walk the IR as the
  // analysis does.
  int status = UsageOrIO;
  ivc::runWithAnalysisStack([&] { status = dispatch(opts); });
  // Output that could not be written (a full disk, a closed pipe) is an I/O
  // error, not a verdict on the code: say so, and exit 2.
  llvm::outs().flush();
  if (llvm::outs().has_error()) {
    llvm::errs() << "ivc: error: cannot write the output: " << llvm::outs().error().message()
                 << '\n';
    llvm::outs().clear_error();
    return UsageOrIO;
  }
  return status;
}
