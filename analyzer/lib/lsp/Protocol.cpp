//===- Protocol.cpp -------------------------------------------------------===//
#include "Protocol.h"

namespace ivc::lsp {

using llvm::json::ObjectMapper;
using llvm::json::Path;
using llvm::json::Value;

namespace {
// `textDocument: {uri: ...}`, the shape most params share.
bool mapUri(ObjectMapper &o, const Value &v, Path p, std::string &uri) {
  const llvm::json::Object *obj = v.getAsObject();
  const Value *doc = obj ? obj->get("textDocument") : nullptr;
  if (!doc) {
    p.field("textDocument").report("missing value");
    return false;
  }
  ObjectMapper d(*doc, p.field("textDocument"));
  return d && d.map("uri", uri);
}
} // namespace

bool fromJSON(const Value &v, TextDocumentItem &out, Path p) {
  ObjectMapper o(v, p);
  return o && o.map("uri", out.uri) && o.mapOptional("languageId", out.languageId) &&
         o.map("version", out.version) && o.map("text", out.text);
}

bool fromJSON(const Value &v, DidOpenParams &out, Path p) {
  ObjectMapper o(v, p);
  return o && o.map("textDocument", out.textDocument);
}

bool fromJSON(const Value &v, VersionedDocument &out, Path p) {
  ObjectMapper o(v, p);
  return o && o.map("uri", out.uri) && o.map("version", out.version);
}

bool fromJSON(const Value &v, ContentChange &out, Path p) {
  ObjectMapper o(v, p);
  return o && o.mapOptional("range", out.range) && o.map("text", out.text);
}

bool fromJSON(const Value &v, DidChangeParams &out, Path p) {
  ObjectMapper o(v, p);
  return o && o.map("textDocument", out.textDocument) &&
         o.map("contentChanges", out.contentChanges);
}

bool fromJSON(const Value &v, DocumentParams &out, Path p) {
  ObjectMapper o(v, p);
  return o && mapUri(o, v, p, out.uri) && o.mapOptional("previousResultId", out.previousResultId);
}

bool fromJSON(const Value &v, PositionParams &out, Path p) {
  ObjectMapper o(v, p);
  return o && mapUri(o, v, p, out.uri) && o.map("position", out.position);
}

bool fromJSON(const Value &v, CodeActionParams &out, Path p) {
  ObjectMapper o(v, p);
  if (!o || !mapUri(o, v, p, out.uri) || !o.map("range", out.range))
    return false;
  const llvm::json::Object *obj = v.getAsObject();
  if (const Value *context = obj->get("context")) {
    ObjectMapper c(*context, p.field("context"));
    return c && c.mapOptional("only", out.only);
  }
  return true;
}

bool fromJSON(const Value &v, ConfigurationParams &out, Path p) {
  ObjectMapper o(v, p);
  if (!o)
    return false;
  if (const Value *s = v.getAsObject()->get("settings"))
    out.settings = *s;
  return true;
}

} // namespace ivc::lsp
