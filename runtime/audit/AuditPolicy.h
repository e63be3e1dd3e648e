//===- AuditPolicy.h - What each PEP 578 audit event means under a policy -===//
//
// One mapping from audit events to the policy's block categories, used by
// both hooks: the worker's (worker/AuditHook.cpp, all user code of an
// ISOLATE mediator) and the host's (python/FastGuard.cpp, the threads that
// run FAST mediators in the server process).
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_AUDIT_AUDITPOLICY_H
#define IVC_RUNTIME_AUDIT_AUDITPOLICY_H

#include <Python.h>

#include <string>
#include <vector>

namespace ivc::runtime::audit {

struct BlockFlags {
  bool fileWrite = true, fileRead = true, subprocess = true, network = true, ctypes = true,
       import = true, exec = true;
};

struct HookPolicy {
  BlockFlags block;
  /// Top-level module names user code may import while imports are blocked.
  std::vector<std::string> importAllowlist;
};

/// The category ("file_write", "subprocess", ..., "sandbox") an audit event
/// belongs to under `policy`, or nullptr when it is allowed; `detail` says
/// what was attempted, for the error message.
const char *classifyAuditEvent(const HookPolicy &policy, const char *event, PyObject *args,
                               std::string &detail);

/// Block flags and import allowlist from a sandbox config dict (keys as in
/// SandboxConfig::toValue); a missing flag blocks.
HookPolicy policyFromConfig(PyObject *config);

} // namespace ivc::runtime::audit

#endif
