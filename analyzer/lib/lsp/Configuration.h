//===- Configuration.h - Which policy each document is analyzed under ----===//
//
// The policy of a document is, first match wins:
//   1. `ivc.policy` from the client's settings (initializationOptions or
//      workspace/didChangeConfiguration): `{"ivc": {"policy": "strict"}}`,
//      a preset name or a policy file (relative: to the workspace root);
//   2. `ivc lsp --policy NAME|FILE`;
//   3. the nearest pyproject.toml with [tool.ivc] above the document;
//   4. the ndif preset.
// Lookups are cached per directory until the configuration changes or a
// document is saved (the pyproject.toml may have been edited).
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_CONFIGURATION_H
#define IVC_LIB_LSP_CONFIGURATION_H

#include "ivc/policy/Policy.h"

#include "llvm/Support/JSON.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ivc::lsp {

struct Settings {
  std::optional<std::string> policy; // unset or empty: not overridden
};

/// Reads `{"ivc": {"policy": ...}}`; other keys and other tools' sections are
/// ignored. An error names what is malformed.
std::optional<std::string> readSettings(const llvm::json::Value &v, Settings &out);

class PolicyResolver {
public:
  using Reporter = std::function<void(const std::string &)>;
  PolicyResolver(std::string commandLine, Reporter report)
      : commandLine_(std::move(commandLine)), report_(std::move(report)) {}

  void setRoot(std::string rootPath) { root_ = std::move(rootPath); }
  void setSettings(Settings s);
  /// Forgets cached lookups (a pyproject.toml may have changed).
  void invalidate() { cache_.clear(); }

  /// The policy for a document at `path` (empty for a buffer with no file).
  /// A policy that cannot be read is reported and skipped.
  std::shared_ptr<const Policy> policyFor(const std::string &path);

private:
  std::string option() const;
  std::string commandLine_;
  Reporter report_;
  std::string root_;
  Settings settings_;
  std::map<std::string, std::shared_ptr<const Policy>> cache_; // by directory
};

} // namespace ivc::lsp

#endif
