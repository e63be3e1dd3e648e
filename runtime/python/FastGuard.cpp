//===- FastGuard.cpp - The audit hook on threads running FAST mediators ---===//
//
// FAST is a static proof: the analyzer is the gate, and nothing isolates a
// FAST mediator from the server. This hook is the second line, so that a
// mediator the analyzer wrongly let through cannot start a process, open a
// socket, write a file, call through ctypes or spy on the threads around it
// (tracing hooks, heap walks, other threads' frames), and so that such a miss
// fails loudly with a PermissionError the operator sees.
//
// It judges the events raised on a thread while a FAST mediator's own code
// runs there (FastGuard.run / .call), with the worker's policy
// (audit/AuditPolicy.cpp) minus what a library legitimately does while it
// lazily imports a submodule on a user's behalf (transformers and scipy load
// theirs on first attribute access): reading files, compiling and running
// module code, importing, and swapping a module's class. Other threads, the
// model's included, pay one thread-local read per audit event.
//
// It is not a boundary: in-process code that holds a prohibited module can
// also rebind functions the host later calls, which no audit event reports.
// The boundary for untrusted code is the worker (docs/threat-model.md).
//
//===----------------------------------------------------------------------===//
#include "FastGuard.h"

#include "audit/AuditPolicy.h"
#include "audit/UserCode.h"

#include <cstring>
#include <memory>

namespace ivc::runtime::python {

namespace {

using audit::HookPolicy;

// The policy in force on this thread while a FAST mediator's code runs on
// it, and how deeply (user code calls back into the runtime, which may call
// user code again).
thread_local const HookPolicy *t_policy = nullptr;
thread_local int t_depth = 0;

bool g_installed = false;

// Lazily imported modules may swap their own class
// (`sys.modules[__name__].__class__ = ...`): the "sandbox" events a worker
// refuses but a FAST thread allows.
bool allowedInFast(const char *event) {
  return std::strcmp(event, "object.__setattr__") == 0 ||
         std::strcmp(event, "object.__delattr__") == 0;
}

int hook(const char *event, PyObject *args, void *) {
  if (t_depth == 0 || !t_policy || allowedInFast(event))
    return 0;
  std::string detail;
  const char *category = audit::classifyAuditEvent(*t_policy, event, args, detail);
  if (!category)
    return 0;
  PyErr_Format(PyExc_PermissionError,
               "ivc: %s is blocked in a FAST mediator (category: %s, audit event: %s); the "
               "analyzer should have sent it to a worker: please report this mediator",
               detail.c_str(), category, event);
  return -1;
}

/// Marks this thread as running user code under `policy` for its lifetime.
class UserScope {
public:
  explicit UserScope(const HookPolicy *policy) : saved_(t_policy) {
    t_policy = policy;
    ++t_depth;
  }
  ~UserScope() {
    --t_depth;
    t_policy = saved_;
  }
  UserScope(const UserScope &) = delete;
  UserScope &operator=(const UserScope &) = delete;

private:
  const HookPolicy *saved_;
};

class FastGuard {
public:
  explicit FastGuard(const py::dict &config) {
    policy_ = audit::policyFromConfig(config.ptr());
    if (PyErr_Occurred())
      throw py::error_already_set();
    policy_.block.fileRead = false;
    policy_.block.exec = false;
    policy_.block.import = false;
  }

  py::object run(const py::list &items, const py::dict &globals) {
    // Compiled before the scope opens, as a worker does.
    PyObject *codes = audit::compileUserItems(items.ptr());
    if (!codes)
      throw py::error_already_set();
    PyObject *result;
    {
      UserScope scope(&policy_);
      result = audit::evalUserCodes(codes, globals.ptr());
    }
    Py_DECREF(codes);
    if (!result)
      throw py::error_already_set();
    return py::reinterpret_steal<py::object>(result);
  }

  py::object call(const py::object &fn, const py::args &args) {
    UserScope scope(&policy_);
    return fn(*args);
  }

private:
  HookPolicy policy_;
};

} // namespace

void registerFastGuard(py::module_ &m) {
  py::class_<FastGuard, std::shared_ptr<FastGuard>>(m, "FastGuard", R"(
The audit hook's policy for FAST mediator threads (a sandbox config dict, as
SandboxConfig.to_wire() makes). run(items, globals) compiles each (source,
filename) and runs it with the hook active on this thread; call(fn, *args)
calls fn with it active. The hook is installed in the process on first use
and cannot be removed.)")
      .def(py::init([](const py::dict &config) {
             if (!g_installed) {
               if (PySys_AddAuditHook(hook, nullptr) != 0)
                 throw py::error_already_set();
               g_installed = true;
             }
             return std::make_shared<FastGuard>(config);
           }),
           py::arg("config"))
      .def("run", &FastGuard::run, py::arg("items"), py::arg("globals"))
      .def("call", &FastGuard::call, py::arg("fn"));
}

} // namespace ivc::runtime::python
