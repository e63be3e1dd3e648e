//===- DType.cpp - Names and sizes of tensor element types ----------------===//
#include "ivc/runtime/codec/DType.h"

namespace ivc::runtime::codec {

namespace {
struct Info {
  const char *name;
  unsigned size;
};
// Indexed by wire code.
constexpr Info Infos[NumDTypes] = {
    {"float32", 4}, {"float64", 8}, {"float16", 2}, {"bfloat16", 2},
    {"int64", 8},   {"int32", 4},   {"int16", 2},   {"int8", 1},
    {"uint8", 1},   {"bool", 1},    {"complex64", 8}, {"complex128", 16},
};
} // namespace

std::string_view dtypeName(DType d) { return Infos[static_cast<uint8_t>(d)].name; }
unsigned dtypeSize(DType d) { return Infos[static_cast<uint8_t>(d)].size; }

std::optional<DType> dtypeFromCode(uint8_t code) {
  if (code >= NumDTypes)
    return std::nullopt;
  return static_cast<DType>(code);
}

std::optional<DType> dtypeFromName(std::string_view name) {
  for (uint8_t c = 0; c < NumDTypes; ++c)
    if (name == Infos[c].name)
      return static_cast<DType>(c);
  return std::nullopt;
}

} // namespace ivc::runtime::codec
