//===- Analyzer.h - The analyzer's entry points in ivc._core -------------===//
#ifndef IVC_RUNTIME_PYTHON_ANALYZER_H
#define IVC_RUNTIME_PYTHON_ANALYZER_H

#include <pybind11/pybind11.h>

namespace ivc::runtime::python {
namespace py = pybind11;
void registerAnalyzer(py::module_ &m);
} // namespace ivc::runtime::python

#endif
