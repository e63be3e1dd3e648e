//===- Policy.h - What a server allows, in one definition ----------------===//
//
// The analyzer enforces a policy statically (prohibited modules and builtins,
// safe modules, whether isolation is allowed) and the runtime enforces the same
// policy in its worker (block flags, import allowlist, preload list). Presets
// `ndif` (the default) and `strict`; custom policies come from `[tool.ivc]` in
// pyproject.toml or a file given with --policy. See docs/policy.md.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_POLICY_POLICY_H
#define IVC_POLICY_POLICY_H

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ivc {

/// Capabilities the worker's audit hook and seccomp filter take away.
struct BlockFlags {
  bool fileWrite = true;
  bool fileRead = true;
  bool subprocess = true;
  bool network = true;
  bool ctypes = true;
  bool import = true; // imports outside the import allowlist
  bool exec = true;   // exec/eval/compile of new code
};

struct Policy {
  std::string name;        // preset name, or the file it came from
  std::string serverName;  // used in messages: "Code sent to <serverName> servers ..."
  /// Category ("process", "filesystem", ...) -> top-level module names. A
  /// module is prohibited with all of its submodules.
  std::map<std::string, std::vector<std::string>> prohibitedModules;
  std::set<std::string> prohibitedBuiltins;
  std::set<std::string> safeModules;
  std::vector<std::string> importAllowlist;
  std::vector<std::string> preload; // imported by a worker before it locks down
  BlockFlags blocks;
  bool allowIsolate = true; // false: whatever is not FAST is rejected
  std::vector<std::string> traceMethods;
  std::vector<std::string> exclude; // glob patterns for `ivc check` directory walks

  struct ProhibitedMatch {
    std::string module;   // the prohibited module reached ("os", "subprocess")
    std::string category; // its category ("process")
  };
  /// Whether the dotted name `dotted` reaches a prohibited module: it is one
  /// (or a submodule or member of one), or one of its later components names
  /// a prohibited top-level module that a package re-exports
  /// (`torch.utils.cpp_extension.subprocess`).
  std::optional<ProhibitedMatch> prohibitedModule(std::string_view dotted) const;
  bool isSafeModule(std::string_view dotted) const;
  bool isProhibitedBuiltin(std::string_view name) const {
    return prohibitedBuiltins.count(std::string(name)) != 0;
  }
  /// "sha256:<hex>" of the policy's canonical JSON form (every field above but the name).
  std::string fingerprint() const;
  /// The canonical JSON form, sorted keys.
  std::string toJson() const;
};

/// The built-in presets.
Policy ndifPolicy();
Policy strictPolicy();
std::optional<Policy> presetPolicy(std::string_view name);

/// Reads a policy from TOML: either a pyproject.toml's [tool.ivc] table or a
/// file whose top level holds the same keys. Errors name the bad key.
struct PolicyError {
  std::string message;
};
std::variant<Policy, PolicyError> parsePolicyToml(std::string_view text, std::string_view origin,
                                                  bool requireToolTable);

/// Finds the policy for `file`: --policy NAME|FILE when given, else the
/// nearest pyproject.toml with a [tool.ivc] table walking up from the file,
/// else the ndif preset.
std::variant<Policy, PolicyError> findPolicy(std::string_view file, std::string_view option);

} // namespace ivc

#endif
