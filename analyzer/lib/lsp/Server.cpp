//===- Server.cpp - Lifecycle and the message loop ------------------------===//
#include "ServerImpl.h"

#include "Diagnostics.h"

namespace ivc::lsp {

using llvm::json::Object;
using llvm::json::Value;

Server::Impl::Impl(Transport &transport, ServerOptions options)
    : transport(transport), options(options), rpc(transport),
      policies(options.policy, [this](const std::string &m) { showError("ivc: " + m); }),
      scheduler([this](const ResultPtr &r) { onResult(r); },
                [this](const std::string &m) { rpc.log(1, "ivc: " + m); }, options.holdAnalysis,
                Scheduler::DefaultRetainedBytes,
                [this](const AnalysisResult &r) { docs.dropTree(r.uri, r.generation); }) {
  registerLifecycle();
  registerTextSync();
  registerFeatures();
}

void Server::Impl::registerLifecycle() {
  rpc.onRequest("initialize", [this](const Value &params, Reply reply) {
    if (!params.getAsObject()) {
      reply.fail(ErrorCode::InvalidParams, "initialize needs InitializeParams");
      return;
    }
    client = readClientCapabilities(params);
    policies.setRoot(client.rootPath);
    Settings settings;
    if (std::optional<std::string> err = readSettings(client.initializationOptions, settings))
      rpc.log(1, "ivc: initializationOptions: " + *err);
    policies.setSettings(settings);
    reply(initializeResult(client, options.version));
    rpc.setState(Dispatcher::State::Running);
  });
  rpc.onNotification("initialized", [](const Value &) { return std::optional<RpcError>(); });
  rpc.onRequest("shutdown", [this](const Value &, Reply reply) {
    rpc.setState(Dispatcher::State::ShutDown);
    shutdownReceived = true;
    reply(nullptr);
  });
  rpc.onNotification("exit", [this](const Value &) {
    exitRequested = true;
    return std::optional<RpcError>();
  });
  if (options.holdAnalysis)
    rpc.onNotification("$/ivc/releaseAnalysis", [this](const Value &) {
      scheduler.release();
      return std::optional<RpcError>();
    });
}

void Server::Impl::analyze(const std::string &uri) {
  std::optional<Snapshot> snapshot = docs.snapshot(uri);
  if (!snapshot)
    return;
  // Analysis holds 150-250 bytes per byte of source: a document past the
  // limit is kept, not analyzed (what was shown for it is cleared), and the
  // user is told once, so that one huge file cannot exhaust the server's
  // memory and end it with every other open document.
  if (size_t bytes = snapshot->source->text().size(); bytes > MaxAnalyzedBytes) {
    scheduler.remove(uri);
    if (tooLarge.insert(uri).second)
      showError("ivc: " + DocumentStore::pathOf(uri) + " is " + std::to_string(bytes >> 20) +
                " MiB, over the language server's " + std::to_string(MaxAnalyzedBytes >> 20) +
                " MiB; check it with `ivc check`");
    if (!client.pullDiagnostics)
      rpc.notify("textDocument/publishDiagnostics",
                 Object{{"uri", uri}, {"version", snapshot->version}, {"diagnostics", llvm::json::Array{}}});
    return;
  }
  tooLarge.erase(uri);
  std::shared_ptr<const Policy> &policy = docPolicies[uri];
  if (!policy)
    policy = policies.policyFor(DocumentStore::pathOf(uri));
  scheduler.schedule(Job{std::move(*snapshot), policy});
}

void Server::Impl::reconfigure(bool all) {
  policies.invalidate();
  for (const std::string &uri : docs.uris()) {
    std::shared_ptr<const Policy> policy = policies.policyFor(DocumentStore::pathOf(uri));
    std::shared_ptr<const Policy> &current = docPolicies[uri];
    bool changed = !current || current->fingerprint() != policy->fingerprint() ||
                   current->name != policy->name;
    current = policy;
    if (all || changed)
      analyze(uri);
  }
  if (client.pullDiagnostics && client.diagnosticRefresh) {
    // A request of ours; the client's answer is ignored by the dispatcher.
    transport.write(Object{{"jsonrpc", "2.0"},
                           {"id", "ivc-refresh-" + std::to_string(++refreshes)},
                           {"method", "workspace/diagnostic/refresh"}});
  }
}

void Server::Impl::onResult(const ResultPtr &r) {
  // Adopt the tree before publishing: a client that answers the diagnostics
  // with its next edit must find the tree that edit applies to. A tree of
  // only the edited statements is no base for an incremental parse: the
  // document keeps its last whole tree, with every edit since applied.
  if (r->analysis->parsed->wholeTree)
    docs.adoptTree(r->uri, r->generation,
                   TreeHandle(ts_tree_copy(r->analysis->parsed->tree.get())));
  if (!client.pullDiagnostics)
    rpc.notifyText("textDocument/publishDiagnostics",
                   publishDiagnosticsParams(*r, client.encoding));
}

void Server::Impl::showError(const std::string &message) {
  rpc.notify("window/showMessage", Object{{"type", 1}, {"message", message}});
}

Server::Server(Transport &transport, ServerOptions options)
    : impl_(std::make_unique<Impl>(transport, std::move(options))) {}

Server::~Server() = default;

void Server::handle(llvm::StringRef message) { impl_->rpc.dispatch(message); }

void Server::waitIdle() { impl_->scheduler.waitIdle(); }

int Server::run() {
  std::string body, error;
  while (!impl_->exitRequested) {
    Transport::ReadStatus status = impl_->transport.read(body, error);
    if (status == Transport::ReadStatus::Eof)
      break;
    if (status == Transport::ReadStatus::Malformed)
      impl_->rpc.malformed(error);
    else
      impl_->rpc.dispatch(body);
    if (impl_->options.sync)
      impl_->scheduler.waitIdle();
  }
  impl_->scheduler.stop();
  return impl_->shutdownReceived ? 0 : 1;
}

} // namespace ivc::lsp
