//===- Lockdown.cpp - The fixed order of the worker's lockdown ------------===//
#include "ivc/runtime/worker/Lockdown.h"

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <grp.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ivc::runtime::worker {

Status closeOtherFds(const std::vector<int> &keepIn) {
  std::vector<int> keep = keepIn;
  keep.insert(keep.end(), {0, 1, 2});
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  // close_range over the gaps between the descriptors we keep.
  unsigned lo = 0;
  for (int fd : keep) {
    if (fd < 0)
      continue;
    if (static_cast<unsigned>(fd) > lo &&
        ::syscall(SYS_close_range, lo, static_cast<unsigned>(fd) - 1, 0) != 0)
      return Error::fromErrno("close_range");
    lo = static_cast<unsigned>(fd) + 1;
  }
  if (::syscall(SYS_close_range, lo, ~0u, 0) != 0)
    return Error::fromErrno("close_range");
  return Status::success();
}

Status dropCapabilities() {
  // The bounding set matters only across execve, which the filter refuses;
  // a worker without CAP_SETPCAP cannot shrink it, and need not.
  for (int cap = 0; ::prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0; ++cap)
    ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
  if (::syscall(SYS_capset, &header, data) != 0)
    return Error::fromErrno("capset");
  return Status::success();
}

Status switchUser(uint32_t uid) {
  if (::geteuid() != 0 || uid == 0)
    return Status::success();
  // Groups first: once the uid changes, the process may no longer set them.
  // A user namespace may refuse either (an unmapped uid, setgroups denied):
  // the error names the setting that asked for it.
  std::string to = " for uid " + std::to_string(uid) + " (SandboxConfig.run_as_uid; 0 keeps root)";
  if (::setgroups(0, nullptr) != 0)
    return Error::fromErrno("setgroups" + to);
  if (::setresgid(uid, uid, uid) != 0)
    return Error::fromErrno("setresgid" + to);
  if (::setresuid(uid, uid, uid) != 0)
    return Error::fromErrno("setresuid" + to);
  return Status::success();
}

Result<LockdownFacts> applyLockdown(const RlimitConfig &rlimits, uint32_t runAsUid,
                                    const std::vector<int> &keepFds,
                                    const SeccompOptions &seccomp, const std::string &netns) {
  LockdownFacts facts;
  facts.netns = netns;
  facts.rlimits = rlimits;
  if (Status s = closeOtherFds(keepFds); !s)
    return s.error();
  if (Status s = applyRlimits(rlimits); !s)
    return s.error();
  if (Status s = switchUser(runAsUid); !s)
    return s.error();
  facts.uid = ::getuid();
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
    return Error::fromErrno("PR_SET_NO_NEW_PRIVS");
  facts.noNewPrivs = true;
  // Not dumpable: same-user processes (other workers, after switchUser)
  // cannot ptrace it or read its memory through /proc.
  if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
    return Error::fromErrno("PR_SET_DUMPABLE");
  if (Status s = dropCapabilities(); !s)
    return s.error();
  facts.capabilitiesDropped = true;
  if (Status s = installSeccompFilter(seccomp); !s)
    return s.error();
  facts.seccomp = true;
  return facts;
}

} // namespace ivc::runtime::worker
