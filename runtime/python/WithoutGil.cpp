//===- WithoutGil.cpp -----------------------------------------------------===//
#include "WithoutGil.h"

#include <unistd.h>

#ifdef __GLIBCXX__
#include <cxxabi.h>
#endif

namespace ivc::runtime::python {

[[noreturn]] static void sleepUntilExit() {
  for (;;)
    ::pause();
}

void retakeGil(PyThreadState *state) {
#if PY_VERSION_HEX >= 0x030D0000
  bool finalizing = Py_IsFinalizing();
#else
  bool finalizing = _Py_IsFinalizing();
#endif
  if (finalizing)
    sleepUntilExit();
#ifdef __GLIBCXX__
  // Finalization may begin between the check and the wait for the GIL.
  // CPython then ends this thread with pthread_exit, whose unwind would run
  // the destructors of the frames above (pybind11's argument holders), and
  // those release Python objects without the GIL. The unwind stops here
  // instead; the handler never returns, so it need not be rethrown.
  try {
    PyEval_RestoreThread(state);
  } catch (abi::__forced_unwind &) {
    sleepUntilExit();
  }
#else
  PyEval_RestoreThread(state);
#endif
}

} // namespace ivc::runtime::python
