//===- UserCode.cpp - Compile a mediator's code trusted, run it as the user's ===//
#include "audit/UserCode.h"

namespace ivc::runtime::audit {

PyObject *compileUserItems(PyObject *items) {
  if (!PyList_Check(items)) {
    PyErr_SetString(PyExc_TypeError,
                    "items must be a list of (source, filename) tuples and code objects");
    return nullptr;
  }
  PyObject *codes = PyList_New(0);
  if (!codes)
    return nullptr;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); ++i) {
    PyObject *item = PyList_GET_ITEM(items, i);
    if (PyCode_Check(item)) { // compiled by the trusted runner already
      if (PyList_Append(codes, item) != 0) {
        Py_DECREF(codes);
        return nullptr;
      }
      continue;
    }
    const char *source, *filename;
    if (!PyArg_ParseTuple(item, "ss", &source, &filename)) {
      Py_DECREF(codes);
      return nullptr;
    }
    PyObject *code = Py_CompileString(source, filename, Py_file_input);
    if (!code || PyList_Append(codes, code) != 0) {
      Py_XDECREF(code);
      Py_DECREF(codes);
      return nullptr;
    }
    Py_DECREF(code);
  }
  return codes;
}

PyObject *evalUserCodes(PyObject *codes, PyObject *globals) {
  if (!PyDict_Check(globals)) {
    PyErr_SetString(PyExc_TypeError, "globals must be a dict");
    return nullptr;
  }
  if (PyDict_GetItemString(globals, "__builtins__") == nullptr &&
      PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) != 0)
    return nullptr;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(codes); ++i) {
    PyObject *r = PyEval_EvalCode(PyList_GET_ITEM(codes, i), globals, globals);
    if (!r)
      return nullptr;
    Py_DECREF(r);
  }
  Py_RETURN_NONE;
}

} // namespace ivc::runtime::audit
