//===- main.cpp - The ivc driver ------------------------------------------===//
#include "Cli.h"

using namespace ivc::cli;

int main(int argc, char **argv) {
  Options opts;
  if (std::optional<int> exit = parse(argc, argv, opts))
    return *exit;
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
