//===- PlanCommand.cpp - `ivc plan FILE` ----------------------------------===//
//
// Prints the execution plan (ivc-plan/v1, docs/plan.md) whatever the
// verdicts: exit 0 when a plan was produced, 2 on usage or I/O errors.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"
#include "Inputs.h"

#include "ivc/plan/Plan.h"

namespace ivc::cli {

int runPlan(const Options &opts) {
  if (opts.inputs.size() != 1) {
    llvm::errs() << "ivc: error: plan takes exactly one file\n";
    return UsageOrIO;
  }
  auto analysis = analyzeFile(opts.inputs[0], opts);
  if (!analysis)
    return UsageOrIO;
  writePlan(llvm::outs(), *analysis);
  return Clean;
}

} // namespace ivc::cli
