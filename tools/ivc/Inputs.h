//===- Inputs.h - Files, policies and manifests for the commands ---------===//
#ifndef IVC_TOOLS_INPUTS_H
#define IVC_TOOLS_INPUTS_H

#include "Cli.h"

#include "ivc/engine/Engine.h"
#include "ivc/policy/Policy.h"
#include "ivc/resolve/Manifest.h"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ivc::cli {

/// Expands files and directories (recursing into *.py, skipping hidden and
/// cache directories and paths matching `exclude` globs) into a sorted list.
/// An input that cannot be read, or a directory whose walk fails, is listed
/// as it is: checking it reports it unchecked.
std::vector<std::string> collectPythonFiles(const std::vector<std::string> &inputs,
                                            const Options &opts);

/// The policy for each file: --policy when given, else the nearest
/// pyproject.toml with [tool.ivc], else ndif. Thread-safe, cached per directory.
class PolicyCache {
public:
  explicit PolicyCache(std::string option) : option_(std::move(option)) {}
  /// Prints the error and returns nothing for a malformed policy.
  std::optional<Policy> policyFor(const std::string &file);

private:
  std::string option_;
  std::mutex mutex_;
  std::map<std::string, std::optional<Policy>> byDirectory_;
};

/// Reads --manifest; prints the error and returns false when it is malformed.
bool loadManifest(const Options &opts, std::shared_ptr<const Manifest> &out);

/// Reads `path`, finds its policy, loads --manifest and analyzes it; prints
/// the error and returns null on a usage or I/O error.
std::unique_ptr<Analysis> analyzeFile(const std::string &path, const Options &opts);

/// The root that SARIF URIs are relative to: the enclosing git checkout of
/// the current directory, or the current directory.
std::string sourceRoot();
/// `path` relative to `root`, with forward slashes.
std::string relativeUri(const std::string &path, const std::string &root);

} // namespace ivc::cli

#endif
