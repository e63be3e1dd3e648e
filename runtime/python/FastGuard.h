//===- FastGuard.h - The audit hook on threads running FAST mediators -----===//
#ifndef IVC_RUNTIME_PYTHON_FASTGUARD_H
#define IVC_RUNTIME_PYTHON_FASTGUARD_H

#include <pybind11/pybind11.h>

namespace ivc::runtime::python {
namespace py = pybind11;
/// `ivc._core.FastGuard`.
void registerFastGuard(py::module_ &m);
} // namespace ivc::runtime::python

#endif
