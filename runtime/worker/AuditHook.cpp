//===- AuditHook.cpp - The worker's audit hook ----------------------------===//
//
// Installed before lockdown, inert until user code runs: then every audit
// event is judged by the policy (audit/AuditPolicy.cpp) and a blocked one
// becomes a PermissionError before the action reaches the kernel filter.
//
//===----------------------------------------------------------------------===//
#include "AuditHook.h"

#include "audit/UserCode.h"

namespace ivc::runtime::worker {

namespace {

HookPolicy g_policy;
bool g_installed = false;
int g_userDepth = 0;
// The worker's own (trusted) code runs on this thread only. Python 3.11
// raises no audit event when a thread starts, so user code can start one
// that outlives its job: every other thread counts as user code, always.
unsigned long g_trustedThread = 0;

int hook(const char *event, PyObject *args, void *) {
  if (g_userDepth == 0 && PyThread_get_thread_ident() == g_trustedThread)
    return 0;
  std::string detail;
  const char *cat = classifyAuditEvent(g_policy, event, args, detail);
  if (!cat)
    return 0;
  PyErr_Format(PyExc_PermissionError,
               "ivc sandbox: %s is blocked by policy (category: %s, audit event: %s)",
               detail.c_str(), cat, event);
  return -1;
}

} // namespace

bool installAuditHook(const HookPolicy &policy) {
  if (g_userDepth > 0)
    return false;
  g_policy = policy;
  g_trustedThread = PyThread_get_thread_ident();
  if (!g_installed) {
    if (PySys_AddAuditHook(hook, nullptr) != 0)
      return false;
    g_installed = true;
  }
  return true;
}

bool userCodeRunning() { return g_userDepth > 0; }

PyObject *runUser(PyObject *items, PyObject *globals) {
  // Compiled with the hook as it is now: inactive for the trusted runner,
  // active for a nested call from user code.
  PyObject *codes = audit::compileUserItems(items);
  if (!codes)
    return nullptr;
  ++g_userDepth;
  PyObject *result = audit::evalUserCodes(codes, globals);
  --g_userDepth;
  Py_DECREF(codes);
  return result;
}

PyObject *callUser(PyObject *fn, PyObject *args) {
  ++g_userDepth;
  PyObject *result = PyObject_Call(fn, args, nullptr);
  --g_userDepth;
  return result;
}

} // namespace ivc::runtime::worker
