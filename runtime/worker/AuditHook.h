//===- AuditHook.h - PEP 578 enforcement of the policy's block flags ------===//
//
// The kernel filter is the boundary; the audit hook is what turns a blocked
// action into a clear PermissionError that names the policy category and
// the audit event, before the action reaches the kernel. It is installed in
// C (it cannot be removed from Python) and acts only while user code runs:
// the worker's own trusted code (protocol, tensor transport) runs with the
// hook inactive, user code runs inside runUser(), which activates it.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_WORKER_AUDITHOOK_H
#define IVC_RUNTIME_WORKER_AUDITHOOK_H

#include "audit/AuditPolicy.h"

namespace ivc::runtime::worker {

using audit::classifyAuditEvent;
using audit::HookPolicy;

/// Installs the hook (once per process). Later calls replace the policy
/// only while no user code is running.
bool installAuditHook(const HookPolicy &policy);

/// Compiles each (source, filename) while trusted, then runs them in order
/// in `globals` with the hook active. Nested calls keep the hook active.
/// Returns a new reference to None, or nullptr with the exception set.
PyObject *runUser(PyObject *items, PyObject *globals);
/// fn(*args) with the hook active: the worker's own steps that may run a
/// user's methods (an exception's __str__ when it is reported).
PyObject *callUser(PyObject *fn, PyObject *args);

bool userCodeRunning();

} // namespace ivc::runtime::worker

#endif
