//===- Policy.cpp - Queries and the canonical form of a policy -----------===//
#include "ivc/policy/Policy.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/StringExtras.h"

namespace ivc {

namespace {
// `dotted` is `root` or a submodule of it.
bool underModule(std::string_view dotted, std::string_view root) {
  return dotted.size() >= root.size() && dotted.compare(0, root.size(), root) == 0 &&
         (dotted.size() == root.size() || dotted[root.size()] == '.');
}

llvm::json::Array strings(const auto &items) {
  llvm::json::Array a;
  for (const std::string &s : items)
    a.push_back(s);
  return a;
}
} // namespace

std::optional<Policy::ProhibitedMatch> Policy::prohibitedModule(std::string_view dotted) const {
  for (const auto &[category, modules] : prohibitedModules)
    for (const std::string &m : modules)
      if (underModule(dotted, m))
        return ProhibitedMatch{m, category};
  // Packages that import a prohibited module expose it as an attribute
  // (torch.os, torch.utils.cpp_extension.subprocess). Submodules that merely
  // share a prohibited module's name are not that module.
  static constexpr std::string_view namesakes[] = {"scipy.signal", "scipy.io", "torch.signal",
                                                   "torch.multiprocessing"};
  // And some under another name (`import builtins as bltns` in enum); found
  // by walking the public attributes of the safe modules' loaded modules.
  static constexpr std::pair<std::string_view, std::string_view> renamed[] = {
      {"bltns", "builtins"},    // enum
      {"bltn_open", "builtins"}, // tarfile: the builtin open
      {"python_multiprocessing", "multiprocessing"}, // torch.utils.data.dataloader
  };
  size_t start = dotted.find('.');
  while (start != std::string_view::npos) {
    size_t end = dotted.find('.', start + 1);
    std::string_view component = dotted.substr(start + 1, end == std::string_view::npos
                                                              ? std::string_view::npos
                                                              : end - start - 1);
    std::string_view prefix = dotted.substr(0, end);
    bool namesake = false;
    for (std::string_view n : namesakes)
      namesake |= prefix == n;
    for (const auto &[alias, module] : renamed)
      if (component == alias)
        component = module;
    if (!namesake)
      for (const auto &[category, modules] : prohibitedModules)
        for (const std::string &m : modules)
          if (component == m)
            return ProhibitedMatch{m, category};
    start = end;
  }
  return std::nullopt;
}

bool Policy::isSafeModule(std::string_view dotted) const {
  for (const std::string &m : safeModules)
    if (underModule(dotted, m))
      return true;
  return false;
}

std::string Policy::toJson() const {
  llvm::json::Object modules;
  for (const auto &[category, list] : prohibitedModules)
    modules[category] = strings(list);
  llvm::json::Object blocksObj{{"file_write", blocks.fileWrite}, {"file_read", blocks.fileRead},
                               {"subprocess", blocks.subprocess}, {"network", blocks.network},
                               {"ctypes", blocks.ctypes},         {"import", blocks.import},
                               {"exec", blocks.exec}};
  llvm::json::Object obj{
      {"allow_isolate", allowIsolate},
      {"block", std::move(blocksObj)},
      {"import_allowlist", strings(importAllowlist)},
      {"preload", strings(preload)},
      {"prohibited_builtins", strings(prohibitedBuiltins)},
      {"prohibited_modules", std::move(modules)},
      {"safe_modules", strings(safeModules)},
      {"server_name", serverName},
      {"trace_methods", strings(traceMethods)},
  };
  std::string out;
  llvm::raw_string_ostream os(out);
  os << llvm::json::Value(std::move(obj)); // llvm::json sorts object keys
  return out;
}

std::string Policy::fingerprint() const {
  std::string json = toJson();
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(json));
  return "sha256:" + llvm::toHex(digest, /*LowerCase=*/true);
}

} // namespace ivc
