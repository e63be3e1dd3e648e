//===- Wire.h - Tags of the value wire format (private to the codec) ------===//
//
// The format is documented in docs/runtime.md ("Value codec"); keep the two
// in step. Tags are one byte; lengths and integers are LEB128 varints.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_CODEC_WIRE_H
#define IVC_RUNTIME_CODEC_WIRE_H

#include <cstdint>

namespace ivc::runtime::codec::wire {

enum Tag : uint8_t {
  None = 0x00,
  False = 0x01,
  True = 0x02,
  Int = 0x03,    // zigzag varint
  Float = 0x04,  // 8 bytes, IEEE 754 binary64, little-endian
  Str = 0x05,    // varint length, UTF-8 bytes
  Bytes = 0x06,  // varint length, bytes
  List = 0x07,   // varint count, values
  Tuple = 0x08,  // varint count, values
  Dict = 0x09,   // varint count, key value pairs
  Set = 0x0a,    // varint count, values
  DType = 0x0b,  // one byte, DType code
  Device = 0x0c, // varint length, type ([a-z0-9_]+), zigzag varint index (-1: none)
  Tensor = 0x0d, // dtype byte, ndim byte, ndim varint dims, varint space, offset, nbytes
};

inline uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

} // namespace ivc::runtime::codec::wire

#endif
