//===- Value.cpp - Construction, equality and printing of values ---------===//
#include "ivc/runtime/codec/Value.h"

#include <cstdio>
#include <cstring>

namespace ivc::runtime::codec {

std::string_view kindName(Kind k) {
  switch (k) {
  case Kind::None: return "None";
  case Kind::Bool: return "bool";
  case Kind::Int: return "int";
  case Kind::Float: return "float";
  case Kind::Str: return "str";
  case Kind::Bytes: return "bytes";
  case Kind::List: return "list";
  case Kind::Tuple: return "tuple";
  case Kind::Dict: return "dict";
  case Kind::Set: return "set";
  case Kind::DType: return "dtype";
  case Kind::Device: return "device";
  case Kind::Tensor: return "tensor";
  }
  return "?";
}

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Kind::Bool;
  v.b_ = b;
  return v;
}
Value Value::integer(int64_t i) {
  Value v;
  v.kind_ = Kind::Int;
  v.i_ = i;
  return v;
}
Value Value::real(double f) {
  Value v;
  v.kind_ = Kind::Float;
  v.f_ = f;
  return v;
}
Value Value::str(std::string s) {
  Value v;
  v.kind_ = Kind::Str;
  v.s_ = std::move(s);
  return v;
}
Value Value::bytes(std::string b) {
  Value v;
  v.kind_ = Kind::Bytes;
  v.s_ = std::move(b);
  return v;
}
Value Value::list(std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::List;
  v.items_ = std::move(items);
  return v;
}
Value Value::tuple(std::vector<Value> items) {
  Value v = list(std::move(items));
  v.kind_ = Kind::Tuple;
  return v;
}
Value Value::dict(std::vector<Value> items) {
  Value v = list(std::move(items));
  v.kind_ = Kind::Dict;
  return v;
}
Value Value::set(std::vector<Value> items) {
  Value v = list(std::move(items));
  v.kind_ = Kind::Set;
  return v;
}
Value Value::dtype(DType d) {
  Value v;
  v.kind_ = Kind::DType;
  v.dtype_ = d;
  return v;
}
Value Value::device(std::string type, int32_t index) {
  Value v;
  v.kind_ = Kind::Device;
  v.s_ = std::move(type);
  v.i_ = index;
  return v;
}
Value Value::tensor(TensorDesc desc) {
  Value v;
  v.kind_ = Kind::Tensor;
  v.tensor_ = std::move(desc);
  return v;
}

const Value *Value::get(std::string_view key) const {
  if (kind_ != Kind::Dict)
    return nullptr;
  for (size_t i = 0; i + 1 < items_.size(); i += 2)
    if (items_[i].kind_ == Kind::Str && items_[i].s_ == key)
      return &items_[i + 1];
  return nullptr;
}

void Value::set(std::string key, Value value) {
  items_.push_back(str(std::move(key)));
  items_.push_back(std::move(value));
}

bool Value::hashable() const {
  switch (kind_) {
  case Kind::List:
  case Kind::Dict:
  case Kind::Set:
  case Kind::Tensor: return false;
  case Kind::Tuple:
    for (const Value &item : items_)
      if (!item.hashable())
        return false;
    return true;
  default: return true;
  }
}

bool Value::operator==(const Value &o) const {
  if (kind_ != o.kind_)
    return false;
  switch (kind_) {
  case Kind::None: return true;
  case Kind::Bool: return b_ == o.b_;
  case Kind::Int: return i_ == o.i_;
  case Kind::Float: return std::memcmp(&f_, &o.f_, sizeof f_) == 0;
  case Kind::Str:
  case Kind::Bytes: return s_ == o.s_;
  case Kind::List:
  case Kind::Tuple:
  case Kind::Dict:
  case Kind::Set: return items_ == o.items_;
  case Kind::DType: return dtype_ == o.dtype_;
  case Kind::Device: return s_ == o.s_ && i_ == o.i_;
  case Kind::Tensor:
    return tensor_.dtype == o.tensor_.dtype && tensor_.shape == o.tensor_.shape &&
           tensor_.space == o.tensor_.space && tensor_.offset == o.tensor_.offset &&
           tensor_.nbytes == o.tensor_.nbytes;
  }
  return false;
}

static void reprString(const std::string &s, std::string &out) {
  out += '\'';
  for (unsigned char c : s) {
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\'';
}

static void reprInto(const Value &v, std::string &out) {
  auto seq = [&](const char *open, const char *close) {
    out += open;
    for (size_t i = 0; i < v.items().size(); ++i) {
      if (i)
        out += ", ";
      reprInto(v.items()[i], out);
    }
    if (v.is(Kind::Tuple) && v.items().size() == 1)
      out += ',';
    out += close;
  };
  switch (v.kind()) {
  case Kind::None: out += "None"; break;
  case Kind::Bool: out += v.asBool() ? "True" : "False"; break;
  case Kind::Int: out += std::to_string(v.asInt()); break;
  case Kind::Float: {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v.asFloat());
    out += buf;
    break;
  }
  case Kind::Str: reprString(v.asString(), out); break;
  case Kind::Bytes:
    out += 'b';
    reprString(v.asString(), out);
    break;
  case Kind::List: seq("[", "]"); break;
  case Kind::Tuple: seq("(", ")"); break;
  case Kind::Set: seq("{", "}"); break;
  case Kind::Dict:
    out += '{';
    for (size_t i = 0; i + 1 < v.items().size(); i += 2) {
      if (i)
        out += ", ";
      reprInto(v.items()[i], out);
      out += ": ";
      reprInto(v.items()[i + 1], out);
    }
    out += '}';
    break;
  case Kind::DType:
    out += "torch.";
    out += dtypeName(v.asDType());
    break;
  case Kind::Device:
    out += "device(";
    reprString(v.asString(), out);
    if (v.deviceIndex() >= 0)
      out += ", " + std::to_string(v.deviceIndex());
    out += ')';
    break;
  case Kind::Tensor: {
    const TensorDesc &t = v.asTensor();
    out += "tensor(";
    out += dtypeName(t.dtype);
    out += ", [";
    for (size_t i = 0; i < t.shape.size(); ++i) {
      if (i)
        out += ", ";
      out += std::to_string(t.shape[i]);
    }
    out += "], space=" + std::to_string(t.space) + ", offset=" + std::to_string(t.offset) +
           ", nbytes=" + std::to_string(t.nbytes) + ")";
    break;
  }
  }
}

std::string Value::repr() const {
  std::string out;
  reprInto(*this, out);
  return out;
}

} // namespace ivc::runtime::codec
