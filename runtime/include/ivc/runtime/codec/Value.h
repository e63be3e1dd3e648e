//===- Value.h - The closed set of values that cross the channel ---------===//
//
// Everything a worker sends is one of these kinds and nothing else: no
// pickle, no user-defined classes, no code. Tensors travel as descriptors
// (dtype, shape, where the bytes lie in the transport's tensor space); the
// bytes themselves never pass through the codec.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_CODEC_VALUE_H
#define IVC_RUNTIME_CODEC_VALUE_H

#include "ivc/runtime/codec/DType.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ivc::runtime::codec {

enum class Kind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  Str,
  Bytes,
  List,
  Tuple,
  Dict,
  Set,
  DType,
  Device,
  Tensor,
};

std::string_view kindName(Kind k);

/// Where a tensor's bytes are: `space` names a region of the transport's
/// tensor space (a shared-memory segment, or the in-process handle table),
/// `offset`/`nbytes` a range in it. The codec checks that `nbytes` is what
/// dtype and shape imply; the transport checks the range.
struct TensorDesc {
  DType dtype = DType::Float32;
  std::vector<int64_t> shape;
  uint32_t space = 0;
  uint64_t offset = 0;
  uint64_t nbytes = 0;
};

class Value {
public:
  Value() = default;
  static Value none() { return Value(); }
  static Value boolean(bool b);
  static Value integer(int64_t i);
  static Value real(double f);
  static Value str(std::string s);
  static Value bytes(std::string b);
  static Value list(std::vector<Value> items = {});
  static Value tuple(std::vector<Value> items = {});
  /// `items` alternates key, value.
  static Value dict(std::vector<Value> items = {});
  static Value set(std::vector<Value> items = {});
  static Value dtype(DType d);
  static Value device(std::string type, int32_t index = -1);
  static Value tensor(TensorDesc desc);

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }

  bool asBool() const { return b_; }
  int64_t asInt() const { return i_; }
  double asFloat() const { return f_; }
  /// Str, Bytes, and the device type.
  const std::string &asString() const { return s_; }
  /// List, Tuple, Set; for Dict the flattened key, value sequence.
  const std::vector<Value> &items() const { return items_; }
  std::vector<Value> &items() { return items_; }
  DType asDType() const { return dtype_; }
  int32_t deviceIndex() const { return static_cast<int32_t>(i_); }
  const TensorDesc &asTensor() const { return tensor_; }

  /// Dict lookup by string key; nullptr when absent or not a dict.
  const Value *get(std::string_view key) const;
  /// Appends a key, value pair to a Dict.
  void set(std::string key, Value value);

  /// Whether Python could use it as a dict key or set element (no list,
  /// dict, set or tensor inside).
  bool hashable() const;

  /// Structural equality (floats compare by bits, so NaN == NaN).
  bool operator==(const Value &other) const;

  /// A short, deterministic, human-readable rendering for tests and errors.
  std::string repr() const;

private:
  Kind kind_ = Kind::None;
  bool b_ = false;
  int64_t i_ = 0;
  double f_ = 0;
  DType dtype_ = DType::Float32;
  std::string s_;
  std::vector<Value> items_;
  TensorDesc tensor_;
};

} // namespace ivc::runtime::codec

#endif
