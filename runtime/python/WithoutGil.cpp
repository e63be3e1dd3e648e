//===- WithoutGil.cpp -----------------------------------------------------===//
#include "WithoutGil.h"

#include <unistd.h>

namespace ivc::runtime::python {

void retakeGil(PyThreadState *state) {
#if PY_VERSION_HEX >= 0x030D0000
  bool finalizing = Py_IsFinalizing();
#else
  bool finalizing = _Py_IsFinalizing();
#endif
  if (finalizing)
    for (;;)
      ::pause(); // the process is exiting; this thread has nothing left to do
  PyEval_RestoreThread(state);
}

} // namespace ivc::runtime::python
