//===- Protocol.h - The LSP params ivc reads --------------------------===//
//
// Only the fields ivc uses; unknown fields are ignored, missing required
// ones make the request fail with InvalidParams (see parseParams).
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_PROTOCOL_H
#define IVC_LIB_LSP_PROTOCOL_H

#include "ivc/lsp/DocumentStore.h"
#include "ivc/lsp/Position.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>
#include <vector>

namespace ivc::lsp {

struct TextDocumentItem {
  std::string uri;
  std::string languageId;
  int64_t version = 0;
  std::string text;
};

struct DidOpenParams {
  TextDocumentItem textDocument;
};

struct VersionedDocument {
  std::string uri;
  int64_t version = 0;
};

struct DidChangeParams {
  VersionedDocument textDocument;
  std::vector<ContentChange> contentChanges;
};

/// Any params with just `textDocument: {uri}` (didSave, didClose, codeLens,
/// textDocument/diagnostic).
struct DocumentParams {
  std::string uri;
  std::optional<std::string> previousResultId; // textDocument/diagnostic
};

struct PositionParams {
  std::string uri;
  Position position;
};

struct CodeActionParams {
  std::string uri;
  Range range;
  std::optional<std::vector<std::string>> only;
};

/// workspace/didChangeConfiguration: `settings` is whatever the client holds.
struct ConfigurationParams {
  llvm::json::Value settings = nullptr;
};

bool fromJSON(const llvm::json::Value &v, TextDocumentItem &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, DidOpenParams &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, VersionedDocument &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, ContentChange &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, DidChangeParams &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, DocumentParams &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, PositionParams &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, CodeActionParams &out, llvm::json::Path p);
bool fromJSON(const llvm::json::Value &v, ConfigurationParams &out, llvm::json::Path p);

} // namespace ivc::lsp

#endif
