//===- Codec.h - Encode and decode values, with limits -------------------===//
//
// The wire format is a tagged, length-prefixed tree (docs/runtime.md,
// "Value codec"). The decoder is the host's only parser of worker bytes, so
// it is written for hostile input: every read is bounds-checked, lengths are
// never trusted for allocation, nesting and total item counts are limited,
// and strings must be valid UTF-8.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_CODEC_CODEC_H
#define IVC_RUNTIME_CODEC_CODEC_H

#include "ivc/runtime/codec/Value.h"
#include "ivc/runtime/support/Result.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace ivc::runtime::codec {

struct Limits {
  /// Containers nested deeper than this are refused (bounds recursion).
  unsigned maxDepth = 32;
  /// Values in one message, containers included.
  uint64_t maxItems = 1u << 20;
  /// Dimensions of one tensor (torch itself stops at 64).
  unsigned maxNdim = 32;
  /// Bytes of one str or bytes value.
  uint64_t maxStringBytes = 64u << 20;
};

/// Appends the encoding of `v` to `out`. Values built through the Value API
/// always encode; the encoder does not re-validate UTF-8.
void encode(const Value &v, std::string &out);
std::string encode(const Value &v);

/// Decodes exactly one value spanning all of `bytes`.
Result<Value> decode(std::span<const uint8_t> bytes, const Limits &limits = {});

/// True when `s` is well-formed UTF-8 (no overlongs, no surrogates).
bool isValidUtf8(std::string_view s);

} // namespace ivc::runtime::codec

#endif
