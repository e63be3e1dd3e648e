//===- Compile.cpp - The analyzer as a function from source to plan -------===//
#include "ivc/plan/Plan.h"

namespace ivc {

std::string compilePlan(std::string_view source, std::string_view filename,
                        const CompileOptions &options) {
  auto error = [](const std::string &msg) {
    return printJson(llvm::json::Object{{"error", msg}});
  };
  AnalysisOptions ao;
  ao.reachableCodeOnly = true;
  std::variant<Policy, PolicyError> policy = findPolicy(filename, options.policy);
  if (auto *err = std::get_if<PolicyError>(&policy))
    return error(err->message);
  ao.policy = std::get<Policy>(std::move(policy));
  if (!options.manifest.empty()) {
    std::variant<Manifest, std::string> m = parseManifest(options.manifest, "manifest");
    if (auto *err = std::get_if<std::string>(&m))
      return error("malformed manifest: " + *err);
    ao.manifest = std::make_shared<Manifest>(std::get<Manifest>(std::move(m)));
  }
  thread_local Engine engine;
  auto analysis = engine.analyze(
      std::make_shared<SourceFile>(std::string(filename), std::string(source)), ao);
  return planText(*analysis);
}

} // namespace ivc
