//===- Lockdown.h - What a worker does to itself before user code runs ----===//
//
// Order matters and is fixed by applyLockdown():
//   1. close every descriptor except the ones the worker keeps;
//   2. rlimits (address space, CPU seconds, open files, file size, no new
//      processes, no core dumps);
//   3. a worker started as root becomes an unprivileged user (switchUser):
//      files root owns are out of its reach even through a hole in the
//      filter, and RLIMIT_NPROC binds it;
//   4. no_new_privs and not dumpable;
//   5. every capability dropped (a root worker kept as root would otherwise
//      lock memory past RLIMIT_MEMLOCK, poison pages, ...);
//   6. the seccomp filter (default deny; see SeccompFilter.cpp for the list).
// The network namespace is entered earlier (enterNetworkNamespace), while
// the process is still single-threaded, which unprivileged user namespaces
// require. The PEP 578 audit hook is installed by the worker's Python glue.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_WORKER_LOCKDOWN_H
#define IVC_RUNTIME_WORKER_LOCKDOWN_H

#include "ivc/runtime/support/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ivc::runtime::worker {

struct RlimitConfig {
  uint64_t addressSpaceBytes = 8ull << 30;
  uint64_t cpuSeconds = 600;
  uint64_t openFiles = 64;
  uint64_t fileSizeBytes = 0;
};

struct SeccompOptions {
  /// Our own pid: tgkill is allowed only towards it (raise(), abort()).
  int selfPid = 0;
  /// Development aid: trap denied calls and print their numbers to stderr
  /// instead of failing them silently. Never for production.
  bool trace = false;
  /// Allow executable memory (mmap/mprotect with PROT_EXEC). torch's CPU
  /// kernels from oneDNN are generated at run time and need it; without it
  /// W^X holds and the worker turns oneDNN off.
  bool allowExecMemory = true;
  /// cuda-ipc transport only: descriptors the CUDA driver opened before
  /// lockdown (/dev/nvidiactl, /dev/nvidia<N>, /dev/nvidia-uvm, ...). The
  /// driver drives the GPU through ioctl on them, so ioctl is allowed on
  /// exactly these descriptors. Empty (every CPU configuration): no ioctl.
  std::vector<int> driverIoctlFds;
  /// New threads after lockdown: for the cuda-ipc transport only, whose
  /// driver may start threads of its own (torch's CPU pools start before
  /// lockdown).
  bool allowThreads = false;
};

/// The errno a denied system call fails with. EPERM makes Python raise
/// PermissionError, which names the failure plainly.
constexpr int DeniedErrno = 1; // EPERM

/// Installs the default-deny filter on every thread of the process.
Status installSeccompFilter(const SeccompOptions &options);
/// The names of the allowed system calls (without their argument filters),
/// for docs and tests.
std::vector<std::string> seccompAllowedSyscalls();

Status applyRlimits(const RlimitConfig &config);

/// Empties the effective, permitted, inheritable and ambient sets (and the
/// bounding set where the worker may).
Status dropCapabilities();

/// The user a root worker becomes unless configured otherwise: nobody.
constexpr uint32_t DefaultWorkerUid = 65534;

/// Run as `uid` (and the group of the same number, with no supplementary
/// groups) when the process runs as root and `uid` is not 0; otherwise
/// nothing. Every thread changes (glibc signals each one).
Status switchUser(uint32_t uid);

/// Closes all descriptors except 0, 1, 2 and `keep`.
Status closeOtherFds(const std::vector<int> &keep);

/// Enters a fresh network namespace (only loopback, down). Returns a short
/// description: "new" or why not.
std::string enterNetworkNamespace();

struct LockdownFacts {
  bool seccomp = false;
  bool noNewPrivs = false;
  bool capabilitiesDropped = false;
  uint32_t uid = 0; // the real, effective and saved uid after lockdown
  std::string netns;
  RlimitConfig rlimits;
};

/// Steps 1-6 above. Irreversible. `keepFds` are the channel and segments;
/// `runAsUid` is the user a root worker becomes (0: stays root).
Result<LockdownFacts> applyLockdown(const RlimitConfig &rlimits, uint32_t runAsUid,
                                    const std::vector<int> &keepFds,
                                    const SeccompOptions &seccomp, const std::string &netns);

} // namespace ivc::runtime::worker

#endif
