//===- Rlimits.cpp - Resource limits of a locked-down worker --------------===//
//
// Soft and hard limits are set equal, so user code cannot raise them (and
// setrlimit/prlimit64-with-a-new-limit are refused by seccomp anyway).
//   RLIMIT_AS      address space: a memory bomb fails allocation cleanly
//   RLIMIT_CPU     CPU seconds over the worker's life (the wall-clock
//                  watchdog bounds each trace; this bounds a warm worker)
//   RLIMIT_NOFILE  descriptors: the worker may receive segments, no more
//   RLIMIT_FSIZE   bytes written to regular files: 0 by default (SIGXFSZ is
//                  ignored so an attempt fails with EFBIG instead of killing)
//   RLIMIT_NPROC   0: no new tasks, processes or threads. Binding for
//                  unprivileged users only; seccomp refuses process creation
//                  for everyone. Worker threads are started before lockdown.
//   RLIMIT_CORE    0: a crashing worker leaves no memory image on disk
//   RLIMIT_MEMLOCK 0
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/worker/Lockdown.h"

#include <csignal>
#include <sys/resource.h>

namespace ivc::runtime::worker {

Status applyRlimits(const RlimitConfig &config) {
  struct Limit {
    int resource;
    uint64_t value;
    const char *name;
  };
  const Limit limits[] = {
      {RLIMIT_AS, config.addressSpaceBytes, "RLIMIT_AS"},
      {RLIMIT_CPU, config.cpuSeconds, "RLIMIT_CPU"},
      {RLIMIT_NOFILE, config.openFiles, "RLIMIT_NOFILE"},
      {RLIMIT_FSIZE, config.fileSizeBytes, "RLIMIT_FSIZE"},
      {RLIMIT_NPROC, 0, "RLIMIT_NPROC"},
      {RLIMIT_CORE, 0, "RLIMIT_CORE"},
      {RLIMIT_MEMLOCK, 0, "RLIMIT_MEMLOCK"},
  };
  ::signal(SIGXFSZ, SIG_IGN);
  for (const Limit &l : limits) {
    struct rlimit current;
    if (::getrlimit(l.resource, &current) != 0)
      return Error::fromErrno(std::string("getrlimit ") + l.name);
    rlim_t v = static_cast<rlim_t>(l.value);
    // Never try to raise a hard limit the host already lowered.
    if (current.rlim_max != RLIM_INFINITY && v > current.rlim_max)
      v = current.rlim_max;
    struct rlimit r = {v, v};
    if (::setrlimit(l.resource, &r) != 0)
      return Error::fromErrno(std::string("setrlimit ") + l.name);
  }
  return Status::success();
}

} // namespace ivc::runtime::worker
