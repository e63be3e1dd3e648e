//===- WorkerModule.cpp - `_ivc_worker`: the worker's trusted entry points ===//
//
// A builtin module (registered before the interpreter starts) through which
// the worker's Python loop (ivc/_worker.py) asks the C++ side to lock the
// process down and to run user code with the audit hook active. Nothing in
// it gives user code more than it has: lockdown only tightens and runs once,
// run_user nests with the hook still active.
//
//===----------------------------------------------------------------------===//
#include "AuditHook.h"
#include "WorkerModule.h"

#include "ivc/runtime/worker/Lockdown.h"

#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>

namespace ivc::runtime::worker {

namespace {

std::string g_netns = "not attempted";
bool g_lockedDown = false;
bool g_seccompTrace = false;

bool getBool(PyObject *dict, const char *key, bool fallback) {
  PyObject *v = dict ? PyDict_GetItemString(dict, key) : nullptr;
  return v ? PyObject_IsTrue(v) == 1 : fallback;
}

uint64_t getU64(PyObject *dict, const char *key, uint64_t fallback) {
  PyObject *v = dict ? PyDict_GetItemString(dict, key) : nullptr;
  if (!v || !PyLong_Check(v))
    return fallback;
  unsigned long long r = PyLong_AsUnsignedLongLong(v);
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return fallback;
  }
  return r;
}

PyObject *lockdown(PyObject *, PyObject *args) {
  PyObject *config, *keep, *driverFds = nullptr;
  if (!PyArg_ParseTuple(args, "O!O!|O!", &PyDict_Type, &config, &PyList_Type, &keep,
                        &PyList_Type, &driverFds))
    return nullptr;
  if (g_lockedDown) {
    PyErr_SetString(PyExc_RuntimeError, "the worker is already locked down");
    return nullptr;
  }
  HookPolicy policy = audit::policyFromConfig(config);
  if (PyErr_Occurred())
    return nullptr;
  PyObject *limits = PyDict_GetItemString(config, "rlimits");
  RlimitConfig rl;
  rl.addressSpaceBytes = getU64(limits, "address_space", rl.addressSpaceBytes);
  rl.cpuSeconds = getU64(limits, "cpu_seconds", rl.cpuSeconds);
  rl.openFiles = getU64(limits, "open_files", rl.openFiles);
  rl.fileSizeBytes = getU64(limits, "file_size", rl.fileSizeBytes);
  std::vector<int> keepFds;
  for (Py_ssize_t i = 0; i < PyList_GET_SIZE(keep); ++i) {
    long fd = PyLong_AsLong(PyList_GET_ITEM(keep, i));
    if (PyErr_Occurred())
      return nullptr;
    keepFds.push_back(static_cast<int>(fd));
  }
  // The hook first: it is inert until user code runs, and installing it
  // needs nothing the filter refuses.
  if (!installAuditHook(policy)) {
    PyErr_SetString(PyExc_RuntimeError, "cannot install the audit hook");
    return nullptr;
  }
  SeccompOptions so;
  so.selfPid = static_cast<int>(::getpid());
  so.trace = g_seccompTrace || getBool(config, "seccomp_trace", false);
  so.allowExecMemory = getBool(config, "allow_jit", true);
  // The driver's descriptors get ioctl only under the cuda-ipc transport;
  // any other configuration keeps the CPU filter whatever it is passed.
  PyObject *transport = PyDict_GetItemString(config, "transport");
  const char *transportName = transport && PyUnicode_Check(transport) ? PyUnicode_AsUTF8(transport)
                                                                      : nullptr;
  bool cuda = transportName && std::string(transportName) == "cuda-ipc";
  so.allowThreads = cuda;
  if (driverFds && cuda) {
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(driverFds); ++i) {
      long fd = PyLong_AsLong(PyList_GET_ITEM(driverFds, i));
      if (PyErr_Occurred())
        return nullptr;
      so.driverIoctlFds.push_back(static_cast<int>(fd));
      keepFds.push_back(static_cast<int>(fd));
    }
  }
  // The cuda-ipc worker keeps its uid: the driver starts threads after
  // lockdown, which RLIMIT_NPROC 0 refuses to any user but root.
  uint64_t uid = cuda ? 0 : getU64(config, "run_as_uid", DefaultWorkerUid);
  if (uid >= UINT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "run_as_uid is not a uid");
    return nullptr;
  }
  Result<LockdownFacts> facts = applyLockdown(rl, uint32_t(uid), keepFds, so, g_netns);
  if (!facts) {
    PyErr_Format(PyExc_RuntimeError, "lockdown failed: %s", facts.error().message.c_str());
    return nullptr;
  }
  g_lockedDown = true;
  return Py_BuildValue("{s:O,s:O,s:O,s:I,s:s,s:O,s:n,s:{s:K,s:K,s:K,s:K}}", "seccomp",
                       facts->seccomp ? Py_True : Py_False, "no_new_privs",
                       facts->noNewPrivs ? Py_True : Py_False, "capabilities_dropped",
                       facts->capabilitiesDropped ? Py_True : Py_False, "uid",
                       (unsigned)facts->uid, "netns",
                       facts->netns.c_str(),
                       "audit_hook", Py_True, "driver_ioctl_fds",
                       static_cast<Py_ssize_t>(so.driverIoctlFds.size()), "rlimits", "address_space",
                       (unsigned long long)rl.addressSpaceBytes, "cpu_seconds",
                       (unsigned long long)rl.cpuSeconds, "open_files",
                       (unsigned long long)rl.openFiles, "file_size",
                       (unsigned long long)rl.fileSizeBytes);
}

PyObject *runUserPy(PyObject *, PyObject *args) {
  PyObject *items, *globals;
  if (!PyArg_ParseTuple(args, "OO", &items, &globals))
    return nullptr;
  return runUser(items, globals);
}

PyObject *callUserPy(PyObject *, PyObject *args) {
  Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n < 1) {
    PyErr_SetString(PyExc_TypeError, "call_user(fn, *args)");
    return nullptr;
  }
  PyObject *rest = PyTuple_GetSlice(args, 1, n);
  if (!rest)
    return nullptr;
  PyObject *result = callUser(PyTuple_GET_ITEM(args, 0), rest);
  Py_DECREF(rest);
  return result;
}

PyObject *afterFork(PyObject *, PyObject *args) {
  // A zygote's child: it dies with the zygote (which leaves when the host's
  // channel closes), so that a host killed mid-job leaves no worker
  // computing as an orphan. The zygote forks from its one Python thread,
  // which lives as long as it does.
  int zygote = 0;
  if (!PyArg_ParseTuple(args, "i", &zygote))
    return nullptr;
  if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0)
    return PyErr_SetFromErrno(PyExc_OSError);
  if (::getppid() != zygote)
    ::_exit(1); // the zygote is gone already
  // Its own process group (the watchdog kills the group), and its own
  // network namespace while it is still single-threaded.
  if (::setpgid(0, 0) != 0)
    return PyErr_SetFromErrno(PyExc_OSError);
  g_netns = enterNetworkNamespace();
  Py_RETURN_NONE;
}

PyObject *userCodeRunningPy(PyObject *, PyObject *) {
  return PyBool_FromLong(userCodeRunning());
}

PyMethodDef Methods[] = {
    {"lockdown", lockdown, METH_VARARGS,
     "lockdown(config, keep_fds, driver_fds=[]) -> facts: audit hook, rlimits, no_new_privs, "
     "seccomp (driver_fds: ioctl allowed on them, cuda-ipc transport only)."},
    {"run_user", runUserPy, METH_VARARGS,
     "run_user([(source, filename), ...], globals): compile, then run with the hook active."},
    {"call_user", callUserPy, METH_VARARGS, "call_user(fn, *args): fn(*args) with the hook active."},
    {"after_fork", afterFork, METH_VARARGS,
     "after_fork(zygote_pid): in a zygote's child: die with the zygote, new process group and "
     "netns."},
    {"user_code_running", userCodeRunningPy, METH_NOARGS, "Whether the hook is active."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef Module = {PyModuleDef_HEAD_INIT, "_ivc_worker", nullptr, -1, Methods,
                      nullptr, nullptr, nullptr, nullptr};

} // namespace

void setNetnsStatus(std::string status) { g_netns = std::move(status); }
void setSeccompTrace(bool on) { g_seccompTrace = on; }

PyObject *initWorkerModule() { return PyModule_Create(&Module); }

} // namespace ivc::runtime::worker
