//===- DType.h - Tensor element types the codec can describe -------------===//
#ifndef IVC_RUNTIME_CODEC_DTYPE_H
#define IVC_RUNTIME_CODEC_DTYPE_H

#include <cstdint>
#include <optional>
#include <string_view>

namespace ivc::runtime::codec {

/// Wire codes are part of the format (docs/runtime.md): append, never reorder.
enum class DType : uint8_t {
  Float32 = 0,
  Float64 = 1,
  Float16 = 2,
  BFloat16 = 3,
  Int64 = 4,
  Int32 = 5,
  Int16 = 6,
  Int8 = 7,
  UInt8 = 8,
  Bool = 9,
  Complex64 = 10,
  Complex128 = 11,
};
constexpr uint8_t NumDTypes = 12;

/// The torch name without the `torch.` prefix ("float32", "bfloat16", ...).
std::string_view dtypeName(DType d);
/// Bytes per element.
unsigned dtypeSize(DType d);
std::optional<DType> dtypeFromName(std::string_view name);
std::optional<DType> dtypeFromCode(uint8_t code);

} // namespace ivc::runtime::codec

#endif
