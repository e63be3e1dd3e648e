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
  const std::string &path = opts.inputs[0];
  std::optional<std::string> text = readFile(path);
  if (!text)
    return UsageOrIO;
  std::shared_ptr<const Manifest> manifest;
  if (!loadManifest(opts, manifest))
    return UsageOrIO;
  PolicyCache policies(opts.policy);
  std::optional<Policy> policy = policies.policyFor(path);
  if (!policy)
    return UsageOrIO;
  AnalysisOptions options;
  options.policy = std::move(*policy);
  options.manifest = manifest;
  Engine engine;
  auto analysis = engine.analyze(std::make_shared<SourceFile>(path, std::move(*text)), options);
  llvm::outs() << printJson(planJson(*analysis));
  return Clean;
}

} // namespace ivc::cli
