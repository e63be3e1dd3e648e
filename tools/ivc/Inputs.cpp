//===- Inputs.cpp ---------------------------------------------------------===//
#include "Inputs.h"

#include "llvm/Support/GlobPattern.h"

#include <algorithm>
#include <filesystem>

namespace fs = std::filesystem;

namespace ivc::cli {

namespace {
bool skippedDirectory(const fs::path &p) {
  std::string name = p.filename().string();
  return (!name.empty() && name[0] == '.') || name == "__pycache__" || name == "node_modules" ||
         name == "site-packages";
}

bool excluded(const std::string &path, const std::vector<std::string> &patterns) {
  for (const std::string &pat : patterns) {
    auto glob = llvm::GlobPattern::create(pat);
    if (!glob) {
      llvm::consumeError(glob.takeError());
      continue;
    }
    // A pattern matches the whole relative path or any single component.
    if (glob->match(path))
      return true;
    for (const auto &component : fs::path(path))
      if (glob->match(component.string()))
        return true;
  }
  return false;
}
} // namespace

std::vector<std::string> collectPythonFiles(const std::vector<std::string> &inputs,
                                            const Options &opts) {
  std::vector<std::string> files;
  PolicyCache policies(opts.policy);
  for (const std::string &input : inputs) {
    // A file named explicitly is checked whatever its suffix; one that
    // cannot be read (missing, a symlink loop) is reported unchecked with
    // the others' findings, not instead of them.
    std::error_code ec;
    fs::file_status st = fs::status(input, ec);
    if (ec || !fs::is_directory(st)) {
      files.push_back(input);
      continue;
    }
    std::optional<Policy> dirPolicy = policies.policyFor((fs::path(input) / "x.py").string());
    std::vector<std::string> exclude = dirPolicy ? dirPolicy->exclude : std::vector<std::string>{};
    fs::recursive_directory_iterator it(input, fs::directory_options::skip_permission_denied, ec),
        end;
    for (; it != end; it.increment(ec)) {
      if (ec) { // the walk cannot go on: what it skipped is reported unchecked
        files.push_back(input);
        break;
      }
      const fs::path &p = it->path();
      std::string rel = fs::relative(p, input, ec).string();
      if (it->is_directory(ec)) {
        if (skippedDirectory(p) || excluded(rel, exclude))
          it.disable_recursion_pending();
        continue;
      }
      if (p.extension() == ".py" && !excluded(rel, exclude))
        files.push_back(p.string());
    }
  }
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

std::optional<Policy> PolicyCache::policyFor(const std::string &file) {
  std::string dir = fs::absolute(file).parent_path().string();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!option_.empty())
    dir.clear(); // one policy for every file
  auto it = byDirectory_.find(dir);
  if (it != byDirectory_.end())
    return it->second;
  std::variant<Policy, PolicyError> r = findPolicy(file, option_);
  std::optional<Policy> p;
  if (auto *err = std::get_if<PolicyError>(&r))
    llvm::errs() << "ivc: error: " << err->message << '\n';
  else
    p = std::get<Policy>(std::move(r));
  return byDirectory_[dir] = p;
}

bool loadManifest(const Options &opts, std::shared_ptr<const Manifest> &out) {
  if (opts.manifest.empty())
    return true;
  std::optional<std::string> text = readFile(opts.manifest);
  if (!text)
    return false;
  std::variant<Manifest, std::string> m = parseManifest(*text, opts.manifest);
  if (auto *err = std::get_if<std::string>(&m)) {
    llvm::errs() << "ivc: error: malformed manifest: " << *err << '\n';
    return false;
  }
  out = std::make_shared<Manifest>(std::get<Manifest>(std::move(m)));
  return true;
}

std::unique_ptr<Analysis> analyzeFile(const std::string &path, const Options &opts) {
  std::optional<std::string> text = readFile(path);
  if (!text)
    return nullptr;
  std::shared_ptr<const Manifest> manifest;
  if (!loadManifest(opts, manifest))
    return nullptr;
  PolicyCache policies(opts.policy);
  std::optional<Policy> policy = policies.policyFor(path);
  if (!policy)
    return nullptr;
  AnalysisOptions options;
  options.policy = std::move(*policy);
  options.manifest = std::move(manifest);
  options.reachableCodeOnly = true;
  Engine engine;
  return engine.analyze(std::make_shared<SourceFile>(path, std::move(*text)), options);
}

std::string sourceRoot() {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  for (fs::path p = cwd; !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / ".git", ec))
      return p.string();
    if (p == p.root_path())
      break;
  }
  return cwd.string();
}

std::string relativeUri(const std::string &path, const std::string &root) {
  std::error_code ec;
  fs::path rel = fs::relative(fs::absolute(path, ec), root, ec);
  std::string s = (ec || rel.empty()) ? path : rel.generic_string();
  return s;
}

} // namespace ivc::cli
