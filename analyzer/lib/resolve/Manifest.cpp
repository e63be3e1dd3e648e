//===- Manifest.cpp - Parsing ivc-manifest/v1 -----------------------------===//
#include "ivc/resolve/Manifest.h"
#include "ivc/support/Json.h"

#include "llvm/Support/JSON.h"

namespace ivc {

namespace {

struct Parser {
  std::string error;

  bool fail(const std::string &path, const std::string &msg) {
    if (error.empty())
      error = "'" + path + "' " + msg;
    return false;
  }

  bool string(const llvm::json::Object &o, const std::string &path, llvm::StringRef key,
              std::string &out, bool required) {
    const llvm::json::Value *v = o.get(key);
    if (!v)
      return required ? fail(path + "." + key.str(), "is missing") : true;
    auto s = v->getAsString();
    if (!s)
      return fail(path + "." + key.str(), "must be a string");
    out = s->str();
    return true;
  }

  bool bindings(const llvm::json::Value *v, const std::string &path,
                std::map<std::string, ManifestBinding> &out) {
    if (!v)
      return true;
    const llvm::json::Object *o = v->getAsObject();
    if (!o)
      return fail(path, "must be an object mapping names to bindings");
    for (const auto &kv : *o) {
      std::string sub = path + "." + kv.first.str();
      ManifestBinding b;
      if (!binding(kv.second, sub, b))
        return false;
      out.emplace(kv.first.str(), std::move(b));
    }
    return true;
  }

  bool binding(const llvm::json::Value &v, const std::string &path, ManifestBinding &b) {
    const llvm::json::Object *o = v.getAsObject();
    if (!o)
      return fail(path, "must be an object");
    std::string kind;
    if (!string(*o, path, "kind", kind, true))
      return false;
    using K = ManifestBinding::Kind;
    if (kind == "module") {
      b.kind = K::Module;
      return string(*o, path, "name", b.name, true);
    }
    if (kind == "builtin") {
      b.kind = K::Builtin;
      return string(*o, path, "name", b.name, true);
    }
    if (kind == "function") {
      b.kind = K::Function;
      if (!string(*o, path, "qualname", b.name, true) ||
          !string(*o, path, "source", b.source, true) ||
          !string(*o, path, "file", b.file, false))
        return false;
      if (const llvm::json::Value *fl = o->get("first_line")) {
        auto n = fl->getAsInteger();
        if (!n || *n < 1 || *n > 100000000)
          return fail(path + ".first_line", "must be a positive integer");
        b.firstLine = uint32_t(*n);
      }
      if (const llvm::json::Value *fc = o->get("first_column")) {
        auto n = fc->getAsInteger();
        if (!n || *n < 0 || *n > 10000)
          return fail(path + ".first_column", "must be a non-negative integer");
        b.firstColumn = uint32_t(*n);
      }
      return bindings(o->get("bindings"), path + ".bindings", b.bindings);
    }
    if (kind == "model") {
      b.kind = K::Model;
      return string(*o, path, "path", b.path, false);
    }
    if (kind == "tensor") {
      b.kind = K::Tensor;
      if (!string(*o, path, "dtype", b.dtype, false) ||
          !string(*o, path, "device", b.device, false))
        return false;
      if (const llvm::json::Value *s = o->get("shape")) {
        const llvm::json::Array *a = s->getAsArray();
        if (!a)
          return fail(path + ".shape", "must be an array of integers");
        for (const llvm::json::Value &d : *a) {
          auto n = d.getAsInteger();
          if (!n)
            return fail(path + ".shape", "must be an array of integers");
          b.shape.push_back(*n);
        }
      }
      return true;
    }
    if (kind == "value") {
      b.kind = K::Value;
      if (!string(*o, path, "type", b.type, true))
        return false;
      if (const llvm::json::Value *val = o->get("value")) {
        if (auto s = val->getAsString())
          b.value = s->str();
        else if (auto i = val->getAsInteger())
          b.value = std::to_string(*i);
        else if (auto d = val->getAsNumber())
          b.value = std::to_string(*d);
        else if (auto bl = val->getAsBoolean())
          b.value = *bl ? "True" : "False";
        else if (!val->getAsNull())
          return fail(path + ".value", "must be a string, number, boolean or null");
      }
      return true;
    }
    if (kind == "unknown") {
      b.kind = K::Unknown;
      return string(*o, path, "type", b.type, false);
    }
    return fail(path + ".kind",
                "must be one of module, function, builtin, model, tensor, value, unknown (got '" +
                    kind + "')");
  }
};

} // namespace

std::variant<Manifest, std::string> parseManifest(std::string_view json, std::string_view origin) {
  llvm::Expected<llvm::json::Value> v = parseUntrustedJson(llvm::StringRef(json.data(), json.size()));
  if (!v) {
    std::string msg = llvm::toString(v.takeError());
    return std::string(origin) + ": invalid JSON: " + msg;
  }
  const llvm::json::Object *root = v->getAsObject();
  if (!root)
    return std::string(origin) + ": a manifest must be a JSON object";
  auto schema = root->getString("schema");
  if (!schema || *schema != "ivc-manifest/v1")
    return std::string(origin) + ": 'schema' must be \"ivc-manifest/v1\"";
  Manifest m;
  m.origin = std::string(origin);
  Parser p;
  if (!root->get("bindings"))
    return std::string(origin) + ": 'bindings' is missing";
  if (!p.bindings(root->get("bindings"), "bindings", m.bindings))
    return std::string(origin) + ": " + p.error;
  return m;
}

} // namespace ivc
