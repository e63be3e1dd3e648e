//===- Capabilities.h - What the client can do, what ivc offers it --------===//
#ifndef IVC_LIB_LSP_CAPABILITIES_H
#define IVC_LIB_LSP_CAPABILITIES_H

#include "ivc/lsp/Position.h"

#include "llvm/Support/JSON.h"

#include <string>

namespace ivc::lsp {

/// What the server learns from `initialize` and keeps for the session.
struct ClientCapabilities {
  PositionEncoding encoding = PositionEncoding::Utf16;
  /// The client asked with clangd's `offsetEncoding` extension (Neovim 0.7
  /// and other pre-3.17 clients), so the answer names it the same way.
  bool offsetEncodingExtension = false;
  /// textDocument/diagnostic: the client pulls, so the server does not push.
  bool pullDiagnostics = false;
  /// WorkspaceEdit.documentChanges: edits name the version they apply to.
  bool documentChanges = false;
  /// workspace/diagnostic/refresh: after a configuration change the server
  /// asks a pulling client to pull again.
  bool diagnosticRefresh = false;
  std::string rootPath; // for relative policy files; empty when none
  llvm::json::Value initializationOptions = nullptr;
};

/// Reads InitializeParams; never fails: what is missing or malformed keeps
/// its default (LSP says a client may omit any capability).
ClientCapabilities readClientCapabilities(const llvm::json::Value &params);

/// The InitializeResult.
llvm::json::Value initializeResult(const ClientCapabilities &client, llvm::StringRef version);

} // namespace ivc::lsp

#endif
