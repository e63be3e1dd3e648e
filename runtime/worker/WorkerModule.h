//===- WorkerModule.h - Glue between the worker's main and Python ---------===//
#ifndef IVC_RUNTIME_WORKER_WORKERMODULE_H
#define IVC_RUNTIME_WORKER_WORKERMODULE_H

#include "AuditHook.h"

namespace ivc::runtime::worker {

/// PyInit function of `_ivc_worker`.
PyObject *initWorkerModule();
/// What main() found when it tried to enter a network namespace.
void setNetnsStatus(std::string status);
void setSeccompTrace(bool on);

/// Starts an isolated interpreter with `paths` as sys.path and the worker
/// module registered. Returns false (with a message on stderr) on failure.
bool startPython(const char *argv0, const std::vector<std::string> &paths);

/// `ivc-worker --audit`: runs the canaries, prints one line each, returns
/// the exit status (0 when every canary was refused).
int runAudit(const std::vector<std::string> &pythonPaths, bool verbose, bool allowJit);

} // namespace ivc::runtime::worker

#endif
