//===- LspCommand.cpp - `ivc lsp`: the language server on stdin/stdout ---===//
#include "Cli.h"

#include "ivc/lsp/Server.h"

#include <csignal>
#include <unistd.h>

namespace ivc::cli {

int runLsp(const Options &opts) {
  if (!opts.inputs.empty()) {
    llvm::errs() << "ivc: error: lsp takes no inputs; it reads LSP messages on stdin\n";
    return UsageOrIO;
  }
  // A client that exits while we answer must not kill us with SIGPIPE: the
  // write fails, and the next read sees the end of input.
  std::signal(SIGPIPE, SIG_IGN);
  auto transport = lsp::createFdTransport(STDIN_FILENO, STDOUT_FILENO,
                                          opts.inputStyle == "delimited"
                                              ? lsp::InputStyle::Delimited
                                              : lsp::InputStyle::Standard);
  lsp::ServerOptions options;
  options.version = IVC_VERSION;
  options.policy = opts.policy;
  options.sync = opts.sync;
  options.holdAnalysis = opts.holdAnalysis;
  lsp::Server server(*transport, options);
  return server.run();
}

} // namespace ivc::cli
