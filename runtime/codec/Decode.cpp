//===- Decode.cpp - Bytes to values, for hostile input --------------------===//
//
// Invariants the fuzzer (fuzz/FuzzCodec.cpp) checks: no read outside the
// input, no allocation larger than the input justifies, recursion no deeper
// than Limits::maxDepth, and every accepted input re-encodes to the same
// bytes (the encoding is canonical).
//
//===----------------------------------------------------------------------===//
#include "Wire.h"

#include "ivc/runtime/codec/Codec.h"

#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

namespace ivc::runtime::codec {

namespace {

class Reader {
public:
  Reader(std::span<const uint8_t> bytes, const Limits &limits) : bytes_(bytes), limits_(limits) {}

  Result<Value> top() {
    Value v;
    if (!value(v, 0))
      return Error::codec(error_);
    if (pos_ != bytes_.size())
      return Error::codec("trailing bytes at offset " + std::to_string(pos_));
    return v;
  }

private:
  std::span<const uint8_t> bytes_;
  const Limits &limits_;
  size_t pos_ = 0;
  uint64_t items_ = 0;
  std::string error_;

  size_t remaining() const { return bytes_.size() - pos_; }

  bool fail(const std::string &what, size_t at) {
    error_ = what + " at offset " + std::to_string(at);
    return false;
  }

  bool byte(uint8_t &out) {
    if (remaining() < 1)
      return fail("truncated input", pos_);
    out = bytes_[pos_++];
    return true;
  }

  // Canonical LEB128: at most 10 bytes, no redundant trailing zero group.
  bool varint(uint64_t &out) {
    size_t start = pos_;
    uint64_t v = 0;
    for (unsigned shift = 0, n = 0;; shift += 7, ++n) {
      uint8_t b = 0;
      if (!byte(b))
        return false;
      if (n == 9 && b > 1)
        return fail("varint overflows 64 bits", start);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) {
        if (b == 0 && n > 0)
          return fail("non-canonical varint", start);
        out = v;
        return true;
      }
    }
  }

  bool length(uint64_t &n, uint64_t max, const char *what) {
    size_t at = pos_;
    if (!varint(n))
      return false;
    if (n > remaining())
      return fail(std::string(what) + " length " + std::to_string(n) + " exceeds the input",
                  at);
    if (n > max)
      return fail(std::string(what) + " length " + std::to_string(n) + " exceeds the limit",
                  at);
    return true;
  }

  bool stringBody(std::string &out, bool utf8, const char *what) {
    uint64_t n;
    size_t at = pos_;
    if (!length(n, limits_.maxStringBytes, what))
      return false;
    out.assign(reinterpret_cast<const char *>(bytes_.data() + pos_), n);
    pos_ += n;
    if (utf8 && !isValidUtf8(out))
      return fail("invalid UTF-8 in str", at);
    return true;
  }

  bool sequence(Value &out, Kind kind, unsigned depth, bool pairs) {
    uint64_t n;
    size_t at = pos_;
    if (!varint(n))
      return false;
    // Every value takes at least one byte: a count the input cannot hold is a
    // lie, caught before any allocation.
    uint64_t minBytes = pairs ? 2 : 1;
    if (n > remaining() / minBytes)
      return fail(std::string(kindName(kind)) + " count " + std::to_string(n) +
                      " exceeds the input",
                  at);
    uint64_t values = pairs ? 2 * n : n;
    std::vector<Value> items;
    items.reserve(values);
    for (uint64_t i = 0; i < values; ++i) {
      size_t itemAt = pos_;
      Value item;
      if (!value(item, depth + 1))
        return false;
      bool isKey = pairs ? (i % 2 == 0) : kind == Kind::Set;
      if (isKey && !item.hashable())
        return fail(std::string(kind == Kind::Set ? "set element" : "dict key") + " of kind " +
                        std::string(kindName(item.kind())) + " is not hashable",
                    itemAt);
      items.push_back(std::move(item));
    }
    switch (kind) {
    case Kind::List: out = Value::list(std::move(items)); break;
    case Kind::Tuple: out = Value::tuple(std::move(items)); break;
    case Kind::Dict: out = Value::dict(std::move(items)); break;
    default: out = Value::set(std::move(items)); break;
    }
    return true;
  }

  bool tensor(Value &out) {
    size_t at = pos_;
    uint8_t code = 0, ndim = 0;
    if (!byte(code) || !byte(ndim))
      return false;
    std::optional<DType> dtype = dtypeFromCode(code);
    if (!dtype)
      return fail("unknown dtype code " + std::to_string(code), at);
    if (ndim > limits_.maxNdim)
      return fail("tensor has " + std::to_string(ndim) + " dimensions", at);
    TensorDesc t;
    t.dtype = *dtype;
    t.shape.reserve(ndim);
    uint64_t elements = 1;
    bool overflow = false;
    for (unsigned i = 0; i < ndim; ++i) {
      uint64_t d;
      size_t dimAt = pos_;
      if (!varint(d))
        return false;
      if (d > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return fail("tensor dimension out of range", dimAt);
      if (d != 0 && elements > std::numeric_limits<uint64_t>::max() / d)
        overflow = true;
      elements *= d;
      t.shape.push_back(static_cast<int64_t>(d));
    }
    uint64_t space;
    if (!varint(space) || !varint(t.offset) || !varint(t.nbytes))
      return false;
    if (space > std::numeric_limits<uint32_t>::max())
      return fail("tensor space out of range", at);
    t.space = static_cast<uint32_t>(space);
    uint64_t itemSize = dtypeSize(t.dtype);
    // A zero-sized dimension makes the product 0 whatever came before.
    bool empty = false;
    for (int64_t d : t.shape)
      empty |= d == 0;
    if (empty)
      overflow = false, elements = 0;
    if (overflow || (elements != 0 && elements > std::numeric_limits<uint64_t>::max() / itemSize))
      return fail("tensor size overflows", at);
    if (elements * itemSize != t.nbytes)
      return fail("tensor nbytes " + std::to_string(t.nbytes) + " does not match its shape",
                  at);
    out = Value::tensor(std::move(t));
    return true;
  }

  bool value(Value &out, unsigned depth) {
    if (depth > limits_.maxDepth)
      return fail("nesting deeper than " + std::to_string(limits_.maxDepth), pos_);
    if (++items_ > limits_.maxItems)
      return fail("more than " + std::to_string(limits_.maxItems) + " values", pos_);
    size_t at = pos_;
    uint8_t tag = 0;
    if (!byte(tag))
      return false;
    switch (tag) {
    case wire::None: out = Value::none(); return true;
    case wire::False: out = Value::boolean(false); return true;
    case wire::True: out = Value::boolean(true); return true;
    case wire::Int: {
      uint64_t z;
      if (!varint(z))
        return false;
      out = Value::integer(wire::unzigzag(z));
      return true;
    }
    case wire::Float: {
      if (remaining() < 8)
        return fail("truncated float", at);
      uint64_t bits = 0;
      for (int i = 0; i < 8; ++i)
        bits |= static_cast<uint64_t>(bytes_[pos_ + i]) << (8 * i);
      pos_ += 8;
      double f;
      std::memcpy(&f, &bits, sizeof f);
      out = Value::real(f);
      return true;
    }
    case wire::Str: {
      std::string s;
      if (!stringBody(s, /*utf8=*/true, "str"))
        return false;
      out = Value::str(std::move(s));
      return true;
    }
    case wire::Bytes: {
      std::string s;
      if (!stringBody(s, /*utf8=*/false, "bytes"))
        return false;
      out = Value::bytes(std::move(s));
      return true;
    }
    case wire::List: return sequence(out, Kind::List, depth, false);
    case wire::Tuple: return sequence(out, Kind::Tuple, depth, false);
    case wire::Set: return sequence(out, Kind::Set, depth, false);
    case wire::Dict: return sequence(out, Kind::Dict, depth, true);
    case wire::DType: {
      uint8_t code = 0;
      if (!byte(code))
        return false;
      std::optional<DType> d = dtypeFromCode(code);
      if (!d)
        return fail("unknown dtype code " + std::to_string(code), at);
      out = Value::dtype(*d);
      return true;
    }
    case wire::Device: {
      std::string type;
      if (!stringBody(type, /*utf8=*/false, "device type"))
        return false;
      if (type.empty() || type.size() > 32)
        return fail("device type of length " + std::to_string(type.size()), at);
      for (char c : type)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'))
          return fail("device type has a character outside [a-z0-9_]", at);
      uint64_t z;
      if (!varint(z))
        return false;
      int64_t index = wire::unzigzag(z);
      if (index < -1 || index > std::numeric_limits<int32_t>::max())
        return fail("device index out of range", at);
      out = Value::device(std::move(type), static_cast<int32_t>(index));
      return true;
    }
    case wire::Tensor: return tensor(out);
    default: {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", tag);
      return fail(std::string("unknown tag ") + buf, at);
    }
    }
  }
};

} // namespace

Result<Value> decode(std::span<const uint8_t> bytes, const Limits &limits) {
  return Reader(bytes, limits).top();
}

} // namespace ivc::runtime::codec
