//===- TextSync.cpp - didOpen, didChange, didSave, didClose, configuration ===//
#include "Protocol.h"
#include "ServerImpl.h"

namespace ivc::lsp {

using llvm::json::Array;
using llvm::json::Object;

void Server::Impl::registerTextSync() {
  using Result = std::optional<RpcError>;

  rpc.onNotification<DidOpenParams>("textDocument/didOpen", [this](const DidOpenParams &p) {
    const TextDocumentItem &doc = p.textDocument;
    docs.open(doc.uri, doc.version, doc.text);
    docPolicies[doc.uri] = policies.policyFor(DocumentStore::pathOf(doc.uri));
    analyze(doc.uri);
    return Result();
  });

  rpc.onNotification<DidChangeParams>("textDocument/didChange", [this](const DidChangeParams &p) {
    const std::string &uri = p.textDocument.uri;
    if (llvm::Error err = docs.change(uri, p.textDocument.version, p.contentChanges,
                                      client.encoding)) {
      // A notification has no response to carry the error, and the client's
      // text now differs from ours: tell the user, who can reopen the file.
      std::string message = llvm::toString(std::move(err));
      showError("ivc: ignored an edit of " + uri + " (" + message +
                "); the document is unchanged. Reopen it to resynchronize.");
      return Result(RpcError{ErrorCode::InvalidParams, message});
    }
    analyze(uri);
    return Result();
  });

  rpc.onNotification<DocumentParams>("textDocument/didSave", [this](const DocumentParams &) {
    // The pyproject.toml next to a saved file may be what changed.
    reconfigure(/*all=*/false);
    return Result();
  });

  rpc.onNotification<DocumentParams>("textDocument/didClose", [this](const DocumentParams &p) {
    if (!docs.close(p.uri))
      return Result(RpcError{ErrorCode::InvalidParams, "document is not open: " + p.uri});
    docPolicies.erase(p.uri);
    tooLarge.erase(p.uri);
    scheduler.remove(p.uri);
    if (!client.pullDiagnostics) // clear what the editor shows for it
      rpc.notify("textDocument/publishDiagnostics",
                 Object{{"uri", p.uri}, {"diagnostics", Array{}}});
    return Result();
  });

  rpc.onNotification<ConfigurationParams>(
      "workspace/didChangeConfiguration", [this](const ConfigurationParams &p) {
        Settings settings;
        if (std::optional<std::string> err = readSettings(p.settings, settings)) {
          showError("ivc: " + *err);
          return Result(RpcError{ErrorCode::InvalidParams, *err});
        }
        policies.setSettings(settings);
        reconfigure(/*all=*/true);
        return Result();
      });
}

} // namespace ivc::lsp
