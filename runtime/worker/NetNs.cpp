//===- NetNs.cpp - A private network namespace ----------------------------===//
//
// In a fresh network namespace the only interface is a loopback that is
// down: even a socket that slipped past seccomp reaches nothing. Root (or
// CAP_SYS_ADMIN) can unshare one directly; otherwise a user namespace is
// created with it, which the kernel allows only to a single-threaded process
// and only where unprivileged user namespaces are enabled. Where neither
// works the worker runs on, and reports why (`ivc audit` prints it).
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/worker/Lockdown.h"

#include <cerrno>
#include <cstring>
#include <sched.h>

namespace ivc::runtime::worker {

std::string enterNetworkNamespace() {
  if (::unshare(CLONE_NEWNET) == 0)
    return "new";
  int direct = errno;
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNET) == 0)
    return "new";
  int withUser = errno;
  return std::string("unavailable (unshare: ") + std::strerror(direct) +
         "; with a user namespace: " + std::strerror(withUser) + ")";
}

} // namespace ivc::runtime::worker
