//===- Convert.h - Python objects to codec values and back ----------------===//
//
// The only place Python objects become wire values. The closed set is
// enforced on the way out (anything else is a TypeError naming the type),
// so a value that can be saved in one tier can be saved in the other.
// Tensors are handed to a transport-specific callback: it places the bytes
// and returns the descriptor (export), or maps a descriptor to a tensor
// (import).
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_PYTHON_CONVERT_H
#define IVC_RUNTIME_PYTHON_CONVERT_H

#include "ivc/runtime/codec/Value.h"

#include <pybind11/pybind11.h>

#include <stdexcept>

namespace ivc::runtime::python {

namespace py = pybind11;

/// Registers torch's Tensor, dtype and device types (called once by ivc).
void setTorchTypes(py::object tensor, py::object dtype, py::object device, py::dict dtypes);

/// exporter(tensor) -> (dtype_name, shape, space, offset, nbytes)
codec::Value toValue(py::handle obj, py::handle exporter, unsigned maxDepth = 32);
/// importer(dtype_name, shape, space, offset, nbytes) -> tensor
/// Throws KeysShareAHash for a set or dict too many of whose keys hash
/// alike: the peer chose them to make building it quadratic.
py::object fromValue(const codec::Value &v, py::handle importer);

struct KeysShareAHash : std::runtime_error {
  using std::runtime_error::runtime_error;
};

} // namespace ivc::runtime::python

#endif
