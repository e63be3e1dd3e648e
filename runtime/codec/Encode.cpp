//===- Encode.cpp - Values to bytes ---------------------------------------===//
#include "Wire.h"

#include "ivc/runtime/codec/Codec.h"

#include <cstring>

namespace ivc::runtime::codec {

namespace {

void putVarint(uint64_t v, std::string &out) {
  while (v >= 0x80) {
    out += static_cast<char>((v & 0x7f) | 0x80);
    v >>= 7;
  }
  out += static_cast<char>(v);
}

void putBytes(const std::string &s, std::string &out) {
  putVarint(s.size(), out);
  out += s;
}

void encodeInto(const Value &v, std::string &out) {
  switch (v.kind()) {
  case Kind::None: out += char(wire::None); return;
  case Kind::Bool: out += char(v.asBool() ? wire::True : wire::False); return;
  case Kind::Int:
    out += char(wire::Int);
    putVarint(wire::zigzag(v.asInt()), out);
    return;
  case Kind::Float: {
    out += char(wire::Float);
    uint64_t bits;
    double f = v.asFloat();
    std::memcpy(&bits, &f, sizeof bits);
    for (int i = 0; i < 8; ++i)
      out += static_cast<char>(bits >> (8 * i));
    return;
  }
  case Kind::Str:
    out += char(wire::Str);
    putBytes(v.asString(), out);
    return;
  case Kind::Bytes:
    out += char(wire::Bytes);
    putBytes(v.asString(), out);
    return;
  case Kind::List:
  case Kind::Tuple:
  case Kind::Set: {
    out += char(v.is(Kind::List) ? wire::List : v.is(Kind::Tuple) ? wire::Tuple : wire::Set);
    putVarint(v.items().size(), out);
    for (const Value &item : v.items())
      encodeInto(item, out);
    return;
  }
  case Kind::Dict:
    out += char(wire::Dict);
    putVarint(v.items().size() / 2, out);
    for (size_t i = 0; i + 1 < v.items().size(); i += 2) {
      encodeInto(v.items()[i], out);
      encodeInto(v.items()[i + 1], out);
    }
    return;
  case Kind::DType:
    out += char(wire::DType);
    out += static_cast<char>(v.asDType());
    return;
  case Kind::Device:
    out += char(wire::Device);
    putBytes(v.asString(), out);
    putVarint(wire::zigzag(v.deviceIndex()), out);
    return;
  case Kind::Tensor: {
    const TensorDesc &t = v.asTensor();
    out += char(wire::Tensor);
    out += static_cast<char>(t.dtype);
    out += static_cast<char>(t.shape.size());
    for (int64_t d : t.shape)
      putVarint(static_cast<uint64_t>(d), out);
    putVarint(t.space, out);
    putVarint(t.offset, out);
    putVarint(t.nbytes, out);
    return;
  }
  }
}

} // namespace

void encode(const Value &v, std::string &out) { encodeInto(v, out); }

std::string encode(const Value &v) {
  std::string out;
  encodeInto(v, out);
  return out;
}

} // namespace ivc::runtime::codec
