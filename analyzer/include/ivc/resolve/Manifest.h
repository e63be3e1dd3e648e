//===- Manifest.h - What a live frame bound each free name to ------------===//
//
// `ivc-manifest/v1` (docs/manifest.md) records, for a body captured from a
// running Python process (tools/python/ivc_capture.py), what each free name
// was bound to: a module, a function (with its source and its own bindings),
// a builtin, the model or one of its submodules, a tensor, a plain value, or
// unknown. With --manifest, ivc analyzes with these bindings instead of
// resolving the names statically.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RESOLVE_MANIFEST_H
#define IVC_RESOLVE_MANIFEST_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ivc {

struct ManifestBinding {
  enum class Kind : uint8_t { Module, Function, Builtin, Model, Tensor, Value, Unknown };
  Kind kind = Kind::Unknown;
  std::string name;  // module, builtin, or the function's qualified name
  std::string path;  // model: the submodule path ("" for the model itself)
  // function
  std::string source;
  std::string file;
  uint32_t firstLine = 1;
  uint32_t firstColumn = 0; // indentation of the definition in its file (source is dedented)
  std::map<std::string, ManifestBinding> bindings;
  // tensor
  std::string dtype, device;
  std::vector<int64_t> shape;
  // value
  std::string type;
  std::optional<std::string> value; // for str, int, float, bool
};

struct Manifest {
  std::string origin; // the file it was read from
  std::map<std::string, ManifestBinding> bindings;

  const ManifestBinding *lookup(std::string_view name) const {
    auto it = bindings.find(std::string(name));
    return it == bindings.end() ? nullptr : &it->second;
  }
};

/// Parses a manifest; a malformed one gets an error naming the bad field
/// with its JSON path (`bindings.helper.bindings.os.kind`).
std::variant<Manifest, std::string> parseManifest(std::string_view json, std::string_view origin);

} // namespace ivc

#endif
