//===- Convert.cpp --------------------------------------------------------===//
#include "Convert.h"

#include "ivc/runtime/codec/Codec.h"

#include <map>
#include <unordered_map>

namespace ivc::runtime::python {

using codec::DType;
using codec::Kind;
using codec::TensorDesc;
using codec::Value;

namespace {

struct Torch {
  py::object tensor, dtype, device;
  py::dict byName;                            // "float32" -> torch.float32
  std::unordered_map<PyObject *, DType> code; // torch.float32 -> Float32
};

Torch &torch() {
  static Torch *t = new Torch(); // never destroyed: outlives interpreter teardown
  return *t;
}

PyTypeObject *typeOf(const py::object &type) {
  return reinterpret_cast<PyTypeObject *>(type.ptr());
}

[[noreturn]] void typeError(py::handle obj) {
  throw py::type_error(
      "a value of type '" + std::string(Py_TYPE(obj.ptr())->tp_name) +
      "' cannot cross the ivc channel (allowed: None, bool, int, float, str, bytes, list, tuple, "
      "dict, set, torch.dtype, torch.device, torch.Tensor)");
}

Value tensorValue(py::handle obj, py::handle exporter) {
  py::tuple d = py::reinterpret_borrow<py::object>(exporter)(obj);
  if (d.size() != 5)
    throw py::value_error("tensor exporter must return (dtype, shape, space, offset, nbytes)");
  std::optional<DType> dt = codec::dtypeFromName(d[0].cast<std::string>());
  if (!dt)
    throw py::type_error("tensors of dtype " + d[0].cast<std::string>() +
                         " cannot cross the ivc channel");
  TensorDesc t;
  t.dtype = *dt;
  for (py::handle dim : d[1].cast<py::tuple>())
    t.shape.push_back(dim.cast<int64_t>());
  t.space = d[2].cast<uint32_t>();
  t.offset = d[3].cast<uint64_t>();
  t.nbytes = d[4].cast<uint64_t>();
  return Value::tensor(std::move(t));
}

/// Python objects to values, refusing on this side what the receiving
/// decoder would refuse (codec::Limits), so that the sender's own code gets
/// the error (a TypeError or ValueError at the save, say) and the receiver
/// never sees a message it must treat as hostile.
class Converter {
public:
  Converter(py::handle exporter, unsigned maxDepth) : exporter_(exporter), maxDepth_(maxDepth) {}

  Value convert(py::handle obj, unsigned depth) {
    if (depth > maxDepth_)
      throw py::value_error("value nested deeper than " + std::to_string(maxDepth_) +
                            " cannot cross the ivc channel");
    if (++items_ > limits_.maxItems)
      throw py::value_error("more than " + std::to_string(limits_.maxItems) +
                            " values cannot cross the ivc channel in one message");
    return build(obj, depth);
  }

private:
  Value key(py::handle obj, unsigned depth) {
    Value v = convert(obj, depth);
    if (!v.hashable())
      throw py::type_error("a dict key or set element holding a " +
                           std::string(codec::kindName(v.kind())) +
                           " cannot cross the ivc channel");
    return v;
  }

  Value text(Value v) {
    if (v.asString().size() > limits_.maxStringBytes)
      throw py::value_error("a str or bytes value of more than " +
                            std::to_string(limits_.maxStringBytes) +
                            " bytes cannot cross the ivc channel");
    return v;
  }

  Value build(py::handle obj, unsigned depth); // one value, its items converted

  py::handle exporter_;
  unsigned maxDepth_;
  codec::Limits limits_;
  uint64_t items_ = 0;
};

Value Converter::build(py::handle obj, unsigned depth) {
  PyObject *o = obj.ptr();
  if (o == Py_None)
    return Value::none();
  if (PyBool_Check(o))
    return Value::boolean(o == Py_True);
  if (PyLong_Check(o)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow)
      throw py::value_error("int out of the 64-bit range cannot cross the ivc channel");
    if (v == -1 && PyErr_Occurred())
      throw py::error_already_set();
    return Value::integer(v);
  }
  if (PyFloat_Check(o))
    return Value::real(PyFloat_AS_DOUBLE(o));
  if (PyUnicode_Check(o)) {
    Py_ssize_t n;
    const char *s = PyUnicode_AsUTF8AndSize(o, &n);
    if (!s)
      throw py::error_already_set();
    return text(Value::str(std::string(s, static_cast<size_t>(n))));
  }
  if (PyBytes_Check(o))
    return text(Value::bytes(std::string(PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o))));
  // Types are checked and containers read through the C API only: no
  // method of the value runs (a subclass's __iter__ or __getitem__, a
  // __class__ property isinstance would read), since in a worker that is
  // user code, and this runs outside it.
  Torch &t = torch();
  if (t.tensor && PyObject_TypeCheck(o, typeOf(t.tensor)))
    return tensorValue(obj, exporter_);
  if (PyList_Check(o) || PyTuple_Check(o)) {
    bool list = PyList_Check(o);
    Py_ssize_t n = list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    std::vector<Value> items;
    items.reserve(size_t(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
      // A reference of our own: converting an item may run the exporter,
      // which must not be able to shrink the list under us.
      py::object item = py::reinterpret_borrow<py::object>(list ? PyList_GET_ITEM(o, i)
                                                                : PyTuple_GET_ITEM(o, i));
      items.push_back(convert(item, depth + 1));
      if (list && PyList_GET_SIZE(o) != n)
        throw py::value_error("a list changed size while it was sent");
    }
    return list ? Value::list(std::move(items)) : Value::tuple(std::move(items));
  }
  if (PyDict_Check(o)) {
    std::vector<Value> items;
    PyObject *k, *v;
    Py_ssize_t pos = 0;
    while (PyDict_Next(o, &pos, &k, &v)) {
      py::object kk = py::reinterpret_borrow<py::object>(k);
      py::object vv = py::reinterpret_borrow<py::object>(v);
      items.push_back(key(kk, depth + 1));
      items.push_back(convert(vv, depth + 1));
    }
    return Value::dict(std::move(items));
  }
  if (PyAnySet_CheckExact(o)) {
    std::vector<Value> items;
    for (py::handle item : py::reinterpret_borrow<py::iterable>(obj))
      items.push_back(key(item, depth + 1));
    return Value::set(std::move(items));
  }
  if (t.dtype && PyObject_TypeCheck(o, typeOf(t.dtype))) {
    auto it = t.code.find(o);
    if (it == t.code.end())
      throw py::type_error("dtype " + py::str(obj).cast<std::string>() +
                           " cannot cross the ivc channel");
    return Value::dtype(it->second);
  }
  if (t.device && PyObject_TypeCheck(o, typeOf(t.device))) {
    std::string type = obj.attr("type").cast<std::string>();
    py::object index = obj.attr("index");
    return Value::device(type, index.is_none() ? -1 : index.cast<int32_t>());
  }
  typeError(obj);
}

} // namespace

void setTorchTypes(py::object tensor, py::object dtype, py::object device, py::dict dtypes) {
  Torch &t = torch();
  t.tensor = std::move(tensor);
  t.dtype = std::move(dtype);
  t.device = std::move(device);
  t.byName = std::move(dtypes);
  t.code.clear();
  for (auto [name, obj] : t.byName) {
    std::optional<DType> d = codec::dtypeFromName(name.cast<std::string>());
    if (d)
      t.code[obj.ptr()] = *d;
  }
}

Value toValue(py::handle obj, py::handle exporter, unsigned maxDepth) {
  return Converter(exporter, maxDepth).convert(obj, 0);
}

namespace {

/// Python builds a set or dict in time quadratic in the keys that share a
/// hash, holding the GIL: keys from a peer are counted by hash first, and
/// more than a few alike refuse the value. (In an ordered map: a hash table
/// keyed by Python's hashes, which are ints' own values, is as easy to fill
/// with keys of one bucket.)
class HashCount {
public:
  static constexpr unsigned MaxSameHash = 32;
  void add(py::handle key) {
    if (++seen_[py::hash(key)] > MaxSameHash)
      throw KeysShareAHash("a set or dict with more than " + std::to_string(MaxSameHash) +
                           " keys of one hash");
  }

private:
  std::map<Py_hash_t, unsigned> seen_;
};

} // namespace

py::object fromValue(const Value &v, py::handle importer) {
  switch (v.kind()) {
  case Kind::None: return py::none();
  case Kind::Bool: return py::bool_(v.asBool());
  case Kind::Int: return py::int_(v.asInt());
  case Kind::Float: return py::float_(v.asFloat());
  case Kind::Str: return py::str(v.asString());
  case Kind::Bytes: return py::bytes(v.asString());
  case Kind::List: {
    py::list out(v.items().size());
    for (size_t i = 0; i < v.items().size(); ++i)
      out[i] = fromValue(v.items()[i], importer);
    return out;
  }
  case Kind::Tuple: {
    py::tuple out(v.items().size());
    for (size_t i = 0; i < v.items().size(); ++i)
      out[i] = fromValue(v.items()[i], importer);
    return out;
  }
  case Kind::Set: {
    py::set out;
    HashCount hashes;
    for (const Value &item : v.items()) {
      py::object key = fromValue(item, importer);
      hashes.add(key);
      out.add(key);
    }
    return out;
  }
  case Kind::Dict: {
    py::dict out;
    HashCount hashes;
    for (size_t i = 0; i + 1 < v.items().size(); i += 2) {
      py::object key = fromValue(v.items()[i], importer);
      hashes.add(key);
      out[key] = fromValue(v.items()[i + 1], importer);
    }
    return out;
  }
  case Kind::DType: {
    py::str name(std::string(codec::dtypeName(v.asDType())));
    if (!torch().byName.contains(name))
      throw py::type_error("torch has no dtype " + name.cast<std::string>());
    return torch().byName[name];
  }
  case Kind::Device:
    if (!torch().device)
      throw py::type_error("torch is not loaded");
    return v.deviceIndex() >= 0 ? torch().device(v.asString(), v.deviceIndex())
                                : torch().device(v.asString());
  case Kind::Tensor: {
    const TensorDesc &t = v.asTensor();
    py::tuple shape(t.shape.size());
    for (size_t i = 0; i < t.shape.size(); ++i)
      shape[i] = py::int_(t.shape[i]);
    return py::reinterpret_borrow<py::object>(importer)(
        std::string(codec::dtypeName(t.dtype)), shape, t.space, t.offset, t.nbytes);
  }
  }
  return py::none();
}

} // namespace ivc::runtime::python
