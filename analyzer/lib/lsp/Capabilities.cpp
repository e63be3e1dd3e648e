//===- Capabilities.cpp - initialize: negotiation and capabilities -------===//
#include "Capabilities.h"

#include "ivc/lsp/Uri.h"

namespace ivc::lsp {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

const Object *objectAt(const Object *o, std::initializer_list<llvm::StringRef> path) {
  for (llvm::StringRef key : path) {
    if (!o)
      return nullptr;
    o = o->getObject(key);
  }
  return o;
}

// UTF-8 when the client offers it (no conversion at all), else UTF-16, which
// every client must support.
PositionEncoding negotiate(const Array *offered) {
  if (offered)
    for (const Value &v : *offered)
      if (std::optional<llvm::StringRef> s = v.getAsString(); s && *s == "utf-8")
        return PositionEncoding::Utf8;
  return PositionEncoding::Utf16;
}

} // namespace

ClientCapabilities readClientCapabilities(const Value &params) {
  ClientCapabilities c;
  const Object *p = params.getAsObject();
  const Object *caps = objectAt(p, {"capabilities"});
  if (const Object *general = objectAt(caps, {"general"}))
    c.encoding = negotiate(general->getArray("positionEncodings"));
  if (caps && caps->getArray("offsetEncoding")) {
    c.offsetEncodingExtension = true;
    if (c.encoding != PositionEncoding::Utf8)
      c.encoding = negotiate(caps->getArray("offsetEncoding"));
  }
  c.pullDiagnostics = objectAt(caps, {"textDocument", "diagnostic"}) != nullptr;
  if (const Object *d = objectAt(caps, {"workspace", "diagnostics"}))
    c.diagnosticRefresh = d->getBoolean("refreshSupport").value_or(false);
  if (const Object *edit = objectAt(caps, {"workspace", "workspaceEdit"}))
    c.documentChanges = edit->getBoolean("documentChanges").value_or(false);
  if (p) {
    if (std::optional<llvm::StringRef> root = p->getString("rootUri"))
      c.rootPath = uriToPath(*root).value_or("");
    if (c.rootPath.empty())
      if (std::optional<llvm::StringRef> root = p->getString("rootPath"))
        c.rootPath = root->str();
    if (const Value *init = p->get("initializationOptions"))
      c.initializationOptions = *init;
  }
  return c;
}

Value initializeResult(const ClientCapabilities &client, llvm::StringRef version) {
  Object capabilities{
      {"positionEncoding", encodingName(client.encoding)},
      // Full sync would re-send a 5,000-line file on every keystroke.
      {"textDocumentSync",
       Object{{"openClose", true}, {"change", 2 /*Incremental*/}, {"save", Object{}}}},
      {"codeActionProvider", Object{{"codeActionKinds", Array{"quickfix"}}}},
      {"hoverProvider", true},
      {"codeLensProvider", Object{{"resolveProvider", false}}},
  };
  if (client.pullDiagnostics)
    capabilities["diagnosticProvider"] = Object{
        {"identifier", "ivc"}, {"interFileDependencies", false}, {"workspaceDiagnostics", false}};
  Object result{{"capabilities", std::move(capabilities)},
                {"serverInfo", Object{{"name", "ivc"}, {"version", version}}}};
  if (client.offsetEncodingExtension)
    result["offsetEncoding"] = encodingName(client.encoding);
  return result;
}

} // namespace ivc::lsp
