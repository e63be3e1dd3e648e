//===- Cli.h - The ivc command line -------------------------------------===//
#ifndef IVC_TOOLS_CLI_H
#define IVC_TOOLS_CLI_H

#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace ivc::cli {

/// Exit statuses shared by every command (docs/cli in README).
enum Exit : int { Clean = 0, Findings = 1, UsageOrIO = 2 };

struct Options {
  std::string command;
  std::vector<std::string> inputs;
  std::string format = "text";   // text | json | sarif
  std::string policy;            // preset name or file
  std::string manifest;          // capture manifest file
  std::optional<bool> color;     // unset: color when stdout is a terminal
  bool verify = false;
  bool remarks = false;          // text: also print remarks (why a mediator is ISOLATE)
  bool byteOffsets = false;
  unsigned jobs = 0;             // 0: all cores
  std::string inputStyle = "standard"; // lsp: standard (Content-Length) | delimited (tests)
  bool sync = false;             // lsp tests: finish analyses before the next message
  bool holdAnalysis = false;     // lsp tests: hold analyses until $/ivc/releaseAnalysis
};

/// Parses argv into `opts`. Returns an exit status when the program should stop
/// now (after --help, --version or a usage error), or nothing to go on.
std::optional<int> parse(int argc, char **argv, Options &opts);

/// Reads a regular file, or standard input for `-` (ReadFile.cpp); on
/// failure prints `ivc: error: ...` and returns nothing.
std::optional<std::string> readFile(const std::string &path);

/// Makes allocation failures exit 2 with `ivc: error: out of memory`.
void exitWhenOutOfMemory();

int runDumpIr(const Options &opts);
int runCheck(const Options &opts);
int runPlan(const Options &opts);
int runExplain(const Options &opts);
int runAudit(const Options &opts);
int runLsp(const Options &opts);

} // namespace ivc::cli

#endif
