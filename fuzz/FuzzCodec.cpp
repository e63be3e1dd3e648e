//===- FuzzCodec.cpp - The host's value decoder on arbitrary bytes ---------===//
//
// The decoder is the host's only parser of worker bytes. For any input it
// must return a value or an error without crashing, leaking, reading out of
// bounds or tripping UBSan; and what it accepts must re-encode to exactly
// the input (the format is canonical) and decode again to an equal value.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/codec/Codec.h"

#include <cstdlib>
#include <cstring>

using namespace ivc::runtime::codec;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Limits limits;
  limits.maxItems = 1u << 16;
  auto value = decode({data, size}, limits);
  if (!value.ok())
    return 0;
  std::string again = encode(*value);
  if (again.size() != size || std::memcmp(again.data(), data, size) != 0)
    std::abort();
  auto round = decode({reinterpret_cast<const uint8_t *>(again.data()), again.size()}, limits);
  if (!round.ok() || !(*round == *value))
    std::abort();
  (void)value->repr();
  return 0;
}
