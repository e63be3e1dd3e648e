//===- Audit.h - Run the sandbox canaries (`ivc audit`) -------------------===//
#ifndef IVC_RUNTIME_HOST_AUDIT_H
#define IVC_RUNTIME_HOST_AUDIT_H

#include "ivc/runtime/host/Worker.h"

#include <string>
#include <vector>

namespace ivc::runtime {

struct AuditReport {
  /// Every canary was refused the expected way, and the audit ran to the end.
  bool passed = false;
  /// One line per canary, then a summary line, as ivc-worker printed them.
  std::vector<std::string> lines;
  /// Why the audit could not run or did not finish, if it did not.
  std::string error;
  unsigned refused = 0, total = 0;
};

/// Runs `ivc-worker --audit` and collects its report, waiting until
/// `timeoutMs` at most (then kills it). `allowJit`: audit the filter of a
/// worker whose configuration allows executable memory.
AuditReport runAudit(const WorkerOptions &options, int64_t timeoutMs = 60000,
                     bool allowJit = true);

/// Where the ivc-worker of this build is (IVC_WORKER overrides it).
std::string defaultWorkerPath();

} // namespace ivc::runtime

#endif
