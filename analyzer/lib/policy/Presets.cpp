//===- Presets.cpp - The ndif and strict policies --------------------------===//
#include "ivc/policy/Policy.h"

namespace ivc {

Policy ndifPolicy() {
  Policy p;
  p.name = "ndif";
  p.serverName = "NDIF";
  p.prohibitedModules = {
      {"process", {"os", "subprocess", "pty"}},
      {"filesystem", {"shutil", "pathlib", "glob", "io", "tempfile", "codecs"}},
      {"network", {"socket", "ssl", "http", "urllib", "ftplib"}},
      {"code execution", {"code", "runpy", "importlib", "pickle", "marshal", "shelve"}},
      {"system", {"sys", "signal", "threading", "multiprocessing"}},
      {"low-level", {"ctypes", "gc", "inspect"}},
      {"interpreter", {"builtins", "pdb", "pkgutil"}},
  };
  p.prohibitedBuiltins = {"eval",    "exec",    "compile", "open",       "__import__",
                          "globals", "locals",  "vars",    "getattr",    "setattr",
                          "delattr", "breakpoint", "help", "input",      "memoryview"};
  // The standard library's modules research code imports for bookkeeping
  // (statistics, textwrap, enum, logging, ...): what of them is not in the
  // op catalog runs ISOLATE, where the sandbox holds. (Not `copy`, `string`
  // or `types`: a runtime binds a free name spelled like a safe module to
  // it, and those are common variable names.)
  p.safeModules = {"torch",       "numpy",       "scipy",       "transformers", "accelerate",
                   "einops",      "math",        "random",      "functools",    "itertools",
                   "operator",    "collections", "dataclasses", "typing",       "re",
                   "json",        "nnsight",     "statistics",  "textwrap",     "enum",
                   "warnings",    "logging",     "contextlib",  "heapq",        "bisect"};
  p.importAllowlist.assign(p.safeModules.begin(), p.safeModules.end());
  // (torch imports the other safe modules of the standard library itself.)
  p.preload = {"torch", "numpy", "math", "functools", "itertools", "operator", "collections",
               "json", "re", "random", "statistics"};
  p.traceMethods = {"trace", "generate", "session", "scan", "edit"};
  return p;
}

Policy strictPolicy() {
  Policy p = ndifPolicy();
  p.name = "strict";
  // Only FAST code runs: no worker pool, so no isolation.
  p.allowIsolate = false;
  p.safeModules = {"torch", "numpy", "math", "einops", "nnsight",
                   "functools", "itertools", "operator", "collections"};
  p.importAllowlist.assign(p.safeModules.begin(), p.safeModules.end());
  p.preload = {"torch", "numpy", "math", "functools", "itertools", "operator", "collections"};
  return p;
}

std::optional<Policy> presetPolicy(std::string_view name) {
  if (name == "ndif")
    return ndifPolicy();
  if (name == "strict")
    return strictPolicy();
  return std::nullopt;
}

} // namespace ivc
