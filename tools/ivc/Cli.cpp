//===- Cli.cpp - Argument parsing and help text ---------------------------===//
#include "Cli.h"

#include <cstdlib>
#include <cstring>

namespace ivc::cli {

namespace {

constexpr const char *Usage = R"(ivc: static analysis for nnsight intervention code

usage: ivc <command> [options] <inputs>

commands:
  check PATH...         report what a server would refuse in files and directories
                        (recursing into *.py), in parallel on all cores
  plan FILE             print the execution plan (ivc-plan/v1 JSON) of FILE
  explain FILE:LINE     say in prose what ivc decided for the mediator at LINE, and why
  dump-ir FILE          print the trace regions, mediators and IR of FILE
  audit                 run the sandbox canaries in locked-down workers; exit 1
                        unless every one is refused
  lsp                   run the language server on stdin/stdout (docs/editors.md)

options:
  --format text|json|sarif
                        check: output format (default: text)
  --policy NAME|FILE    a preset (ndif, strict) or a policy file; default: the
                        nearest pyproject.toml with [tool.ivc], else ndif
  --manifest FILE       analyze with the bindings of a capture manifest
                        (ivc-manifest/v1, see tools/python/ivc_capture.py)
  --verify              check: compare diagnostics with `# expected-...` comments
  --remarks             check: also print remarks (why a mediator is ISOLATE)
  -j, --jobs N          check: analyze N files at a time (default: all cores)
  --byte-offsets        dump-ir: print byte offsets with every location
  --color, --no-color   force colored output on or off (default: on for a terminal)
  --input-style=STYLE   lsp: standard (Content-Length framing) or delimited (tests)
  --sync, --hold-analysis
                        lsp tests: deterministic analysis order (docs/editors.md)
  -h, --help            show this help
  --version             show the version

exit status: 0 clean, 1 findings (errors in the code), 2 usage or I/O error
)";

bool takeValue(int argc, char **argv, int &i, const char *name, std::string &out) {
  size_t len = std::strlen(name);
  if (std::strncmp(argv[i], name, len) != 0)
    return false;
  if (argv[i][len] == '=' || (len == 2 && argv[i][len] != '\0')) {
    // --name=value; short options also take their value attached: -j4.
    out = argv[i] + len + (argv[i][len] == '=');
  } else if (argv[i][len] != '\0') {
    return false;
  } else {
    out = i + 1 < argc ? argv[++i] : "";
  }
  if (out.empty())
    llvm::errs() << "ivc: error: " << name << " needs a value\n";
  return true;
}

} // namespace

std::optional<int> parse(int argc, char **argv, Options &opts) {
  bool onlyInputs = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string value;
    if (onlyInputs || a.empty() || a[0] != '-' || a == "-") {
      if (opts.command.empty())
        opts.command = std::string(a);
      else
        opts.inputs.emplace_back(a);
      continue;
    }
    if (a == "--") {
      onlyInputs = true;
    } else if (a == "-h" || a == "--help") {
      llvm::outs() << Usage;
      return Clean;
    } else if (a == "--version") {
      llvm::outs() << "ivc " << IVC_VERSION << '\n';
      return Clean;
    } else if (a == "--color") {
      opts.color = true;
    } else if (a == "--no-color") {
      opts.color = false;
    } else if (a == "--byte-offsets") {
      opts.byteOffsets = true;
    } else if (a == "--verify") {
      opts.verify = true;
    } else if (a == "--remarks") {
      opts.remarks = true;
    } else if (a == "--sync") {
      opts.sync = true;
    } else if (a == "--hold-analysis") {
      opts.holdAnalysis = true;
    } else if (takeValue(argc, argv, i, "--input-style", value)) {
      if (value.empty())
        return UsageOrIO;
      if (value != "standard" && value != "delimited") {
        llvm::errs() << "ivc: error: --input-style must be standard or delimited\n";
        return UsageOrIO;
      }
      opts.inputStyle = value;
    } else if (takeValue(argc, argv, i, "--policy", value)) {
      if (value.empty())
        return UsageOrIO;
      opts.policy = value;
    } else if (takeValue(argc, argv, i, "--manifest", value)) {
      if (value.empty())
        return UsageOrIO;
      opts.manifest = value;
    } else if (takeValue(argc, argv, i, "-j", value) || takeValue(argc, argv, i, "--jobs", value)) {
      char *end = nullptr;
      unsigned long n = std::strtoul(value.c_str(), &end, 10);
      if (value.empty())
        return UsageOrIO;
      if (*end || value[0] == '-' || n == 0 || n > 1024) {
        llvm::errs() << "ivc: error: --jobs needs a number from 1 to 1024\n";
        return UsageOrIO;
      }
      opts.jobs = unsigned(n);
    } else if (takeValue(argc, argv, i, "--format", value)) {
      if (value.empty())
        return UsageOrIO;
      if (value != "text" && value != "json" && value != "sarif") {
        llvm::errs() << "ivc: error: --format must be text, json or sarif\n";
        return UsageOrIO;
      }
      opts.format = value;
    } else {
      llvm::errs() << "ivc: error: unknown option '" << a << "' (see ivc --help)\n";
      return UsageOrIO;
    }
  }
  if (opts.command.empty()) {
    llvm::errs() << Usage;
    return UsageOrIO;
  }
  // An option the command does not read would be ignored without a word
  // (`plan --format sarif` printing JSON): refuse it.
  struct Scope {
    bool given;
    const char *option, *command;
  };
  for (const Scope &s : {Scope{opts.format != "text", "--format", "check"},
                         Scope{opts.verify, "--verify", "check"},
                         Scope{opts.remarks, "--remarks", "check"},
                         Scope{opts.jobs != 0, "--jobs", "check"},
                         Scope{opts.byteOffsets, "--byte-offsets", "dump-ir"},
                         Scope{opts.inputStyle != "standard", "--input-style", "lsp"},
                         Scope{opts.sync, "--sync", "lsp"},
                         Scope{opts.holdAnalysis, "--hold-analysis", "lsp"}})
    if (s.given && opts.command != s.command) {
      llvm::errs() << "ivc: error: " << s.option << " is an option of ivc " << s.command
                   << ", not of ivc " << opts.command << '\n';
      return UsageOrIO;
    }
  if (opts.verify && opts.format != "text") {
    llvm::errs() << "ivc: error: --verify prints its own report; it takes no --format\n";
    return UsageOrIO;
  }
  return std::nullopt;
}

} // namespace ivc::cli
