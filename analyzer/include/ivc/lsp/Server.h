//===- Server.h - The ivc language server ---------------------------------===//
//
// `ivc lsp`: LSP 3.17 over a Transport, on the same Engine as `ivc check`.
// Live diagnostics (pushed, or pulled when the client supports
// textDocument/diagnostic), quick fixes, hover with a mediator's tier and
// reasons, and a code lens with each trace's tiers. See docs/editors.md.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LSP_SERVER_H
#define IVC_LSP_SERVER_H

#include "ivc/lsp/Transport.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace ivc::lsp {

struct ServerOptions {
  std::string version = "0";
  std::string policy; // --policy NAME|FILE; client settings override it
  /// Tests: wait for the analyses a message starts before reading the next,
  /// so a transcript's output order does not depend on timing.
  bool sync = false;
  /// Tests: queue analyses but start none until the client sends the
  /// notification `$/ivc/releaseAnalysis`, so a test can supersede a version
  /// or cancel a request that waits for one.
  bool holdAnalysis = false;
};

class Server {
public:
  Server(Transport &transport, ServerOptions options);
  ~Server();
  Server(const Server &) = delete;
  Server &operator=(const Server &) = delete;

  /// Serves until `exit` or the end of input. Returns the exit status: 0
  /// after a `shutdown` request, 1 otherwise (LSP's rule).
  int run();

  /// Handles one message body, as run() does; for in-process clients such as
  /// the latency benchmark.
  void handle(llvm::StringRef message);
  /// Blocks until no analysis is running or queued.
  void waitIdle();

private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

} // namespace ivc::lsp

#endif
