//===- Configuration.cpp --------------------------------------------------===//
#include "Configuration.h"

#include <filesystem>

namespace ivc::lsp {

std::optional<std::string> readSettings(const llvm::json::Value &v, Settings &out) {
  const llvm::json::Object *all = v.getAsObject();
  if (!all)
    return v.kind() == llvm::json::Value::Null ? std::nullopt
                                               : std::optional<std::string>("settings must be an object");
  const llvm::json::Value *ivc = all->get("ivc");
  if (!ivc || ivc->kind() == llvm::json::Value::Null)
    return std::nullopt;
  const llvm::json::Object *o = ivc->getAsObject();
  if (!o)
    return "settings.ivc must be an object";
  if (const llvm::json::Value *policy = o->get("policy")) {
    if (policy->kind() == llvm::json::Value::Null)
      out.policy.reset();
    else if (std::optional<llvm::StringRef> s = policy->getAsString())
      out.policy = s->str();
    else
      return "settings.ivc.policy must be a string";
  }
  return std::nullopt;
}

void PolicyResolver::setSettings(Settings s) {
  settings_ = std::move(s);
  invalidate();
}

std::string PolicyResolver::option() const {
  std::string o = settings_.policy && !settings_.policy->empty() ? *settings_.policy : commandLine_;
  // A relative policy file in the settings names a file of the workspace.
  if (!o.empty() && !presetPolicy(o) && !root_.empty() && std::filesystem::path(o).is_relative())
    return (std::filesystem::path(root_) / o).string();
  return o;
}

std::shared_ptr<const Policy> PolicyResolver::policyFor(const std::string &path) {
  std::string dir = path.empty() ? root_ : std::filesystem::path(path).parent_path().string();
  auto it = cache_.find(dir);
  if (it != cache_.end())
    return it->second;
  // findPolicy walks up from the file's directory; any file in it will do.
  std::string probe = (std::filesystem::path(dir.empty() ? "." : dir) / "_").string();
  std::string opt = option();
  auto found = findPolicy(probe, opt);
  if (auto *err = std::get_if<PolicyError>(&found)) {
    report_("policy: " + err->message);
    // Without the override, fall back to pyproject.toml or the default.
    found = opt.empty() ? std::variant<Policy, PolicyError>(ndifPolicy()) : findPolicy(probe, "");
    if (auto *again = std::get_if<PolicyError>(&found)) {
      report_("policy: " + again->message);
      found = ndifPolicy();
    }
  }
  auto policy = std::make_shared<const Policy>(std::get<Policy>(std::move(found)));
  cache_[dir] = policy;
  return policy;
}

} // namespace ivc::lsp
