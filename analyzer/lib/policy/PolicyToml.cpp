//===- PolicyToml.cpp - Policies from TOML ([tool.ivc] or --policy FILE) --===//
#include "ivc/policy/Policy.h"

#include <toml++/toml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ivc {

namespace {

struct Reader {
  std::string origin; // "pyproject.toml [tool.ivc]"
  std::optional<PolicyError> error;

  void fail(std::string msg) {
    if (!error)
      error = PolicyError{origin + ": " + msg};
  }

  std::optional<std::vector<std::string>> stringList(const toml::node &n, std::string_view key) {
    const toml::array *a = n.as_array();
    if (!a) {
      fail("'" + std::string(key) + "' must be an array of strings");
      return std::nullopt;
    }
    std::vector<std::string> out;
    for (const toml::node &item : *a) {
      if (!item.is_string()) {
        fail("'" + std::string(key) + "' must be an array of strings");
        return std::nullopt;
      }
      out.push_back(*item.value<std::string>());
    }
    return out;
  }

  void read(const toml::table &t, Policy &p) {
    // `extends` first: the other keys modify the preset it names.
    if (const toml::node *e = t.get("extends")) {
      std::optional<std::string> base = e->value<std::string>();
      std::optional<Policy> preset = base ? presetPolicy(*base) : std::nullopt;
      if (!preset)
        return fail("'extends' must name a preset: \"ndif\" or \"strict\"");
      std::string name = p.name;
      p = std::move(*preset);
      p.name = name;
    }
    for (auto &&[k, v] : t) {
      std::string_view key = k.str();
      if (key == "extends")
        continue;
      if (key == "server-name") {
        if (!v.is_string())
          return fail("'server-name' must be a string");
        p.serverName = *v.value<std::string>();
      } else if (key == "allow-isolate") {
        if (!v.is_boolean())
          return fail("'allow-isolate' must be true or false");
        p.allowIsolate = *v.value<bool>();
      } else if (key == "prohibited-modules") {
        const toml::table *cats = v.as_table();
        if (!cats)
          return fail("'prohibited-modules' must be a table of category = [modules]");
        for (auto &&[ck, cv] : *cats) {
          auto list = stringList(cv, "prohibited-modules." + std::string(ck.str()));
          if (!list)
            return;
          p.prohibitedModules[std::string(ck.str())] = std::move(*list);
        }
      } else if (key == "block") {
        const toml::table *flags = v.as_table();
        if (!flags)
          return fail("'block' must be a table of flag = true|false");
        for (auto &&[fk, fv] : *flags) {
          std::string_view f = fk.str();
          bool *slot = f == "file-write"   ? &p.blocks.fileWrite
                       : f == "file-read"  ? &p.blocks.fileRead
                       : f == "subprocess" ? &p.blocks.subprocess
                       : f == "network"    ? &p.blocks.network
                       : f == "ctypes"     ? &p.blocks.ctypes
                       : f == "import"     ? &p.blocks.import
                       : f == "exec"       ? &p.blocks.exec
                                           : nullptr;
          if (!slot)
            return fail("unknown block flag '" + std::string(f) +
                        "' (file-write, file-read, subprocess, network, ctypes, import, exec)");
          if (!fv.is_boolean())
            return fail("'block." + std::string(f) + "' must be true or false");
          *slot = *fv.value<bool>();
        }
      } else if (!readList(key, v, p)) {
        return fail("unknown key '" + std::string(key) + "' (see docs/policy.md)");
      }
      if (error)
        return;
    }
    // No trace method, or one no call can name, would find no trace and
    // pass every file unchecked.
    if (p.traceMethods.empty())
      return fail("'trace-methods' must name at least one method");
    for (const std::string &m : p.traceMethods)
      if (!isMethodName(m))
        return fail("'trace-methods': \"" + m + "\" is not a method name");
  }

  static bool isMethodName(std::string_view s) {
    auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
    return !s.empty() && letter(s[0]) &&
           std::all_of(s.begin(), s.end(), [&](char c) {
             return letter(c) || std::isdigit(static_cast<unsigned char>(c));
           });
  }

  // The list-valued keys; "extend-X" adds to X instead of replacing it.
  bool readList(std::string_view key, const toml::node &v, Policy &p) {
    bool extend = key.substr(0, 7) == "extend-";
    std::string_view base = extend ? key.substr(7) : key;
    auto assign = [&](auto &target) {
      auto list = stringList(v, key);
      if (!list)
        return;
      if (!extend)
        target.clear();
      for (std::string &s : *list) {
        if constexpr (std::is_same_v<std::decay_t<decltype(target)>, std::set<std::string>>)
          target.insert(std::move(s));
        else
          target.push_back(std::move(s));
      }
    };
    if (base == "prohibited-builtins")
      assign(p.prohibitedBuiltins);
    else if (base == "safe-modules")
      assign(p.safeModules);
    else if (base == "import-allowlist")
      assign(p.importAllowlist);
    else if (base == "preload")
      assign(p.preload);
    else if (base == "trace-methods")
      assign(p.traceMethods);
    else if (base == "exclude")
      assign(p.exclude);
    else
      return false;
    return true;
  }
};

/// A policy is a small regular file: a path from an editor's settings that
/// names /dev/zero or /dev/stdin must not hang or exhaust memory.
constexpr uintmax_t MaxPolicyBytes = 4u << 20;

std::optional<std::string> readText(const std::filesystem::path &path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return std::nullopt;
  uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec || size > MaxPolicyBytes)
    return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace

std::variant<Policy, PolicyError> parsePolicyToml(std::string_view text, std::string_view origin,
                                                  bool requireToolTable) {
  toml::table doc;
  try {
    doc = toml::parse(text, origin);
  } catch (const toml::parse_error &e) {
    const toml::source_position &at = e.source().begin;
    return PolicyError{std::string(origin) + ":" + std::to_string(at.line) + ":" +
                       std::to_string(at.column) + ": invalid TOML: " +
                       std::string(e.description())};
  }
  const toml::table *table = &doc;
  std::string where = std::string(origin);
  if (const toml::node *tool = doc.get("tool"); tool && tool->as_table() &&
                                                tool->as_table()->get("ivc")) {
    table = tool->as_table()->get("ivc")->as_table();
    where += " [tool.ivc]";
    if (!table)
      return PolicyError{where + ": must be a table"};
  } else if (requireToolTable) {
    return PolicyError{where + ": no [tool.ivc] table"};
  }
  Policy p = ndifPolicy();
  p.name = std::string(origin);
  Reader reader{where, std::nullopt};
  reader.read(*table, p);
  if (reader.error)
    return *reader.error;
  return p;
}

std::variant<Policy, PolicyError> findPolicy(std::string_view file, std::string_view option) {
  if (!option.empty()) {
    if (std::optional<Policy> preset = presetPolicy(option))
      return *preset;
    std::optional<std::string> text = readText(std::string(option));
    if (!text)
      return PolicyError{"cannot read policy '" + std::string(option) +
                         "' (not a preset: ndif, strict; and not a readable regular file of at most 4 MiB)"};
    return parsePolicyToml(*text, option, /*requireToolTable=*/false);
  }
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(std::string(file), ec).parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    std::filesystem::path candidate = dir / "pyproject.toml";
    // A cheap filter before parsing: `[tool.ivc]`, `[tool]\nivc = {...}` and
    // `[tool."ivc"]` all mention ivc.
    if (std::optional<std::string> text = readText(candidate);
        text && text->find("ivc") != std::string::npos) {
      auto result = parsePolicyToml(*text, candidate.string(), /*requireToolTable=*/true);
      // A pyproject.toml that only mentions ivc elsewhere is not ours.
      if (auto *err = std::get_if<PolicyError>(&result);
          err && err->message.find("no [tool.ivc] table") != std::string::npos) {
      } else {
        return result;
      }
    }
    if (dir == dir.root_path())
      break;
  }
  return ndifPolicy();
}

} // namespace ivc
