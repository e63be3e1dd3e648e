//===- ServerImpl.h - The language server's state (internal) -------------===//
//
// Threads: the main thread reads messages and runs every handler; the
// scheduler's worker runs analyses, publishes their diagnostics and answers
// the requests that waited for them. The document store, the scheduler, the
// dispatcher and the transport lock what they share; the rest (client
// capabilities, policies) is the main thread's, and the worker only reads
// capabilities, which are fixed by `initialize` before any analysis.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_SERVERIMPL_H
#define IVC_LIB_LSP_SERVERIMPL_H

#include "Capabilities.h"
#include "Configuration.h"
#include "JsonRpc.h"
#include "Scheduler.h"

#include "ivc/lsp/DocumentStore.h"
#include "ivc/lsp/Server.h"

#include <map>
#include <set>

namespace ivc::lsp {

struct Server::Impl {
  Impl(Transport &transport, ServerOptions options);

  // Handler registration, one feature area each (Server.cpp, TextSync.cpp,
  // Features.cpp).
  void registerLifecycle();
  void registerTextSync();
  void registerFeatures();

  /// Queues the analysis of the latest version of `uri` under its policy.
  void analyze(const std::string &uri);
  /// Re-reads every open document's policy and re-analyzes those whose
  /// policy changed (all of them when `all`).
  void reconfigure(bool all);
  /// On the worker: publish a fresh result, keep its tree for the next parse.
  void onResult(const ResultPtr &r);
  /// window/showMessage with type Error: something the user should see.
  void showError(const std::string &message);

  /// A request answered from the newest analysis of its document.
  template <typename P>
  void onAnalysisRequest(const std::string &method,
                         std::function<llvm::json::Value(const AnalysisResult &, const P &)> answer);

  Transport &transport;
  ServerOptions options;
  Dispatcher rpc;
  DocumentStore docs;
  ClientCapabilities client;
  PolicyResolver policies;
  std::map<std::string, std::shared_ptr<const Policy>> docPolicies;
  /// Open documents too large to analyze, told to the user once each.
  std::set<std::string> tooLarge;
  static constexpr size_t MaxAnalyzedBytes = size_t(8) << 20;
  bool exitRequested = false;
  bool shutdownReceived = false;
  int refreshes = 0; // workspace/diagnostic/refresh requests sent
  // Last: destroyed first, so the worker stops before what it uses goes.
  Scheduler scheduler;
};

template <typename P>
void Server::Impl::onAnalysisRequest(
    const std::string &method,
    std::function<llvm::json::Value(const AnalysisResult &, const P &)> answer) {
  rpc.onRequest<P>(method, [this, answer](const P &params, Reply reply) {
    if (!docs.isOpen(params.uri)) {
      reply.fail(ErrorCode::InvalidParams, "document is not open: " + params.uri);
      return;
    }
    scheduler.whenReady(params.uri, [answer, params, reply](const ResultPtr &r) {
      if (reply.done())
        return; // cancelled while it waited
      if (!r) {
        reply.fail(ErrorCode::RequestFailed, "the document was closed or could not be analyzed");
        return;
      }
      try {
        reply(answer(*r, params));
      } catch (const std::exception &e) {
        reply.fail(ErrorCode::InternalError, e.what());
      }
    });
  });
}

} // namespace ivc::lsp

#endif
