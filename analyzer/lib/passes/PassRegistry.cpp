//===- PassRegistry.cpp - Every pass, in the order they run ---------------===//
#include "ivc/passes/Pass.h"

namespace ivc {

std::unique_ptr<Pass> createBlacklistPass();
std::unique_ptr<Pass> createClassifyPass();
std::unique_ptr<Pass> createBackwardPass();
std::unique_ptr<Pass> createBoundaryPass();
std::unique_ptr<Pass> createPlanFactsPass();

std::vector<std::unique_ptr<Pass>> createPasses() {
  std::vector<std::unique_ptr<Pass>> passes;
  passes.push_back(createBlacklistPass());
  passes.push_back(createClassifyPass());
  passes.push_back(createBackwardPass());
  passes.push_back(createBoundaryPass());
  passes.push_back(createPlanFactsPass());
  return passes;
}

} // namespace ivc
