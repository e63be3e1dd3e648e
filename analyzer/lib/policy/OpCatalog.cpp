//===- OpCatalog.cpp ------------------------------------------------------===//
#include "ivc/policy/OpCatalog.h"

#include "llvm/Support/JSON.h"

#include <cstdio>
#include <cstdlib>

namespace ivc {

namespace {
constexpr std::string_view embeddedCatalog =
#include "OpCatalogData.inc"
    ;

llvm::StringRef ref(std::string_view s) { return {s.data(), s.size()}; }
} // namespace

std::optional<OpCatalog> OpCatalog::parse(std::string_view json) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(ref(json));
  if (!v) {
    llvm::consumeError(v.takeError());
    return std::nullopt;
  }
  const llvm::json::Object *root = v->getAsObject();
  if (!root || root->getString("schema") != "ivc-op-catalog/v1")
    return std::nullopt;
  OpCatalog c;
  auto entries = [&](llvm::StringRef key, llvm::StringMap<Entry> &into) {
    if (const llvm::json::Object *o = root->getObject(key))
      for (const auto &kv : *o) {
        Entry e;
        if (const llvm::json::Object *flags = kv.second.getAsObject())
          e.inplace = flags->getBoolean("inplace").value_or(false);
        into[kv.first.str()] = e;
      }
  };
  entries("functions", c.functions_);
  entries("tensor_methods", c.methods_);
  auto names = [&](llvm::StringRef key, llvm::StringMap<bool> &into) {
    if (const llvm::json::Array *a = root->getArray(key))
      for (const llvm::json::Value &item : *a)
        if (auto s = item.getAsString())
          into[*s] = true;
  };
  names("tensor_attributes", c.attributes_);
  names("constants", c.constants_);
  auto strings = [&](llvm::StringRef key, llvm::StringMap<std::string> &into) {
    if (const llvm::json::Object *o = root->getObject(key))
      for (const auto &kv : *o)
        if (auto s = kv.second.getAsString())
          into[kv.first.str()] = s->str();
  };
  strings("unsafe", c.unsafe_);
  strings("versions", c.versions_);
  for (const auto &kv : c.unsafe_)
    for (llvm::StringRef owner : {"torch.Tensor.", "numpy.ndarray."})
      if (kv.first().starts_with(owner))
        c.unsafeMembers_.try_emplace(kv.first().drop_front(owner.size()), kv.first().str());
  // The modules the catalogued functions live in: `torch.nn.functional`.
  for (const auto &kv : c.functions_)
    for (size_t dot = kv.first().find('.'); dot != llvm::StringRef::npos;
         dot = kv.first().find('.', dot + 1))
      c.modules_[kv.first().substr(0, dot)] = true;
  return c;
}

const OpCatalog &OpCatalog::builtin() {
  static const OpCatalog catalog = [] {
    std::optional<OpCatalog> c = parse(embeddedCatalog);
    if (!c) {
      std::fprintf(stderr, "ivc: fatal error: the embedded op catalog is malformed\n");
      std::abort();
    }
    return std::move(*c);
  }();
  return catalog;
}

const OpCatalog::Entry *OpCatalog::function(std::string_view q) const {
  auto it = functions_.find(ref(q));
  return it == functions_.end() ? nullptr : &it->second;
}

const OpCatalog::Entry *OpCatalog::tensorMethod(std::string_view name) const {
  auto it = methods_.find(ref(name));
  return it == methods_.end() ? nullptr : &it->second;
}

bool OpCatalog::isTensorAttribute(std::string_view name) const {
  return attributes_.count(ref(name)) != 0;
}

bool OpCatalog::isConstant(std::string_view q) const { return constants_.count(ref(q)) != 0; }

bool OpCatalog::isModule(std::string_view q) const { return modules_.count(ref(q)) != 0; }

std::optional<std::string_view> OpCatalog::unsafeCategory(std::string_view q) const {
  // Longest match first: try the name, then each parent at a dot boundary.
  std::string_view cur = q;
  while (!cur.empty()) {
    auto it = unsafe_.find(ref(cur));
    if (it != unsafe_.end())
      return std::string_view(it->second);
    size_t dot = cur.rfind('.');
    if (dot == std::string_view::npos)
      break;
    cur = cur.substr(0, dot);
  }
  return std::nullopt;
}

const std::string *OpCatalog::unsafeMember(std::string_view member) const {
  auto it = unsafeMembers_.find(ref(member));
  return it == unsafeMembers_.end() ? nullptr : &it->second;
}

std::string_view OpCatalog::version(std::string_view package) const {
  auto it = versions_.find(ref(package));
  return it == versions_.end() ? std::string_view() : std::string_view(it->second);
}

} // namespace ivc
