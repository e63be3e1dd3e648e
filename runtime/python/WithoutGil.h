//===- WithoutGil.h - Run a blocking call with the GIL released -----------===//
//
// Every wait in ivc._core releases the GIL. The thread that waits may be a
// daemon thread (a FAST mediator's, or a server's request thread) that wakes
// while the interpreter is exiting: a runtime closed from an atexit hook, or
// a channel freed during finalization. CPython 3.11-3.13 end such a thread
// from inside PyEval_RestoreThread by unwinding its stack (pthread_exit). An
// unwind that starts in a destructor -- pybind11's gil_scoped_release retakes
// the GIL in one -- calls std::terminate, and the whole process aborts at
// exit; an unwind through pybind11's frames also frees Python objects without
// the GIL. So the GIL is retaken in plain code, a thread that wakes after
// finalization began never tries, and one that finalization overtakes stops
// the unwind where it starts: either sleeps until the process ends.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_PYTHON_WITHOUTGIL_H
#define IVC_RUNTIME_PYTHON_WITHOUTGIL_H

#include <pybind11/pybind11.h>

#include <optional>
#include <type_traits>

namespace ivc::runtime::python {

/// Retakes the GIL that PyEval_SaveThread released as `state`.
void retakeGil(PyThreadState *state);

/// Returns fn() (or rethrows what it threw), run with the GIL released. The
/// GIL is retaken outside the try block: an unwind that PyEval_RestoreThread
/// starts must not be caught and retake it twice.
template <typename Fn> auto withoutGil(Fn &&fn) -> std::invoke_result_t<Fn &> {
  using Returned = std::invoke_result_t<Fn &>;
  PyThreadState *state = PyEval_SaveThread();
  if constexpr (std::is_void_v<Returned>) {
    try {
      fn();
    } catch (...) {
      retakeGil(state);
      throw;
    }
    retakeGil(state);
  } else {
    std::optional<Returned> result;
    try {
      result.emplace(fn());
    } catch (...) {
      retakeGil(state);
      throw;
    }
    retakeGil(state);
    return std::move(*result);
  }
}

} // namespace ivc::runtime::python

#endif
