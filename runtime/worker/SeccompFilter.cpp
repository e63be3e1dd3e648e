//===- SeccompFilter.cpp - The worker's default-deny system call filter ---===//
//
// Everything not listed here fails with EPERM (clone3 with ENOSYS, so glibc
// falls back to clone, whose flags we can inspect). A system call made
// through another ABI (i386 `int 0x80`, x32) does not match the filter's
// architecture and kills the process with SIGSYS: there is no legitimate
// use, and killing avoids any ambiguity in how a foreign ABI reads errno.
//
// The list is what a locked-down CPython running torch CPU ops needs once
// its modules are imported. Deliberately absent: open/openat/openat2/creat
// (no file access at all, read or write), stat family on paths, socket,
// socketpair, connect, bind, accept, execve, fork, vfork, ptrace,
// process_vm_*, io_uring_*, bpf, perf_event_open, userfaultfd, keyctl,
// mount, unshare, setns, kill (other processes), memfd_create, MSG_OOB, and, unless
// the configuration allows run-time code generation (oneDNN's JIT),
// executable memory (mmap/mprotect with PROT_EXEC).
//
// The cuda-ipc transport adds one rule and only when the configuration asks
// for it: ioctl, restricted to the descriptors the CUDA driver opened before
// lockdown (SeccompOptions::driverIoctlFds). Everything else the driver does
// afterwards (mmap/munmap of device and pinned memory, futex, poll,
// clock_gettime, sched_yield while it spins on a stream) is already allowed.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/worker/Lockdown.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <ucontext.h>
#include <unistd.h>

namespace ivc::runtime::worker {

namespace {

// Allowed whatever their arguments.
constexpr const char *Unconditional[] = {
    // I/O on descriptors the worker already has: its channel, its
    // shared-memory segments, stderr. It cannot obtain new ones.
    "read", "readv", "pread64", "preadv", "preadv2", "write", "writev", "pwrite64",
    "pwritev", "pwritev2", "close", "fstat", "poll", "ppoll", "select", "pselect6",
    // Memory (executable mappings are filtered below).
    "munmap", "mremap", "brk",
    // Threads and synchronisation (clone is filtered below).
    "futex", "set_robust_list", "rseq", "sched_yield", "gettid", "exit", "exit_group",
    "restart_syscall",
    // Signals delivered to ourselves.
    "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
    // Time, identity, resource usage.
    "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday", "time",
    "getrusage", "times", "sysinfo", "uname", "getpid", "getppid", "getuid", "geteuid", "getgid",
    "getegid", "getresuid", "getresgid", "getgroups", "getrlimit", "getrandom",
};

constexpr int AllowedAdvice[] = {
    MADV_NORMAL,   MADV_RANDOM,    MADV_SEQUENTIAL, MADV_WILLNEED,  MADV_DONTNEED,
    MADV_FREE,     MADV_DONTFORK,  MADV_DOFORK,     MADV_HUGEPAGE,  MADV_NOHUGEPAGE,
    MADV_DONTDUMP, MADV_DODUMP,    MADV_WIPEONFORK, MADV_KEEPONFORK, MADV_COLD,
    MADV_PAGEOUT,  MADV_POPULATE_READ, MADV_POPULATE_WRITE};

// Flags a thread-creating clone never needs; any of them means a new
// process, a namespace, or tracing.
constexpr uint64_t ForbiddenCloneFlags = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS |
                                         CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID |
                                         CLONE_NEWNET | CLONE_PTRACE | CLONE_UNTRACED |
                                         CLONE_VFORK | CLONE_PARENT | CLONE_PIDFD;

void trapHandler(int, siginfo_t *info, void *context) {
  // Async-signal-safe: format by hand, write(2) only.
  char buf[64] = "ivc-worker: seccomp denied syscall ";
  size_t n = std::strlen(buf);
  int nr = info->si_syscall;
  char digits[12];
  int d = 0;
  do {
    digits[d++] = static_cast<char>('0' + nr % 10);
    nr /= 10;
  } while (nr && d < 11);
  while (d)
    buf[n++] = digits[--d];
  buf[n++] = '\n';
  ssize_t ignored = ::write(2, buf, n);
  (void)ignored;
#if defined(__x86_64__)
  static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RAX] = -DeniedErrno;
#elif defined(__aarch64__)
  static_cast<ucontext_t *>(context)->uc_mcontext.regs[0] = -DeniedErrno;
#endif
}

struct Ctx {
  scmp_filter_ctx ctx;
  ~Ctx() { seccomp_release(ctx); }
};

Status fail(const char *what, int rc) {
  return Error::io(std::string("seccomp: ") + what + ": " + std::strerror(-rc));
}

} // namespace

std::vector<std::string> seccompAllowedSyscalls() {
  std::vector<std::string> out(std::begin(Unconditional), std::end(Unconditional));
  for (const char *n : {"mmap", "mprotect", "clone", "tgkill", "fcntl", "lseek", "madvise", "prctl",
                        "prlimit64", "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sendmsg", "recvmsg", "sendto", "recvfrom"})
    out.emplace_back(n);
  return out;
}

Status installSeccompFilter(const SeccompOptions &options) {
  uint32_t deny = options.trace ? SCMP_ACT_TRAP : SCMP_ACT_ERRNO(DeniedErrno);
  Ctx c{seccomp_init(deny)};
  if (!c.ctx)
    return Error::io("seccomp_init failed");
  int rc;
  // Foreign ABIs (i386, x32): kill. Every thread gets the filter.
  if ((rc = seccomp_attr_set(c.ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)) < 0)
    return fail("badarch action", rc);
  if ((rc = seccomp_attr_set(c.ctx, SCMP_FLTATR_CTL_TSYNC, 1)) < 0)
    return fail("tsync", rc);

  auto allow = [&](const char *name, unsigned count = 0,
                   const scmp_arg_cmp *cmps = nullptr) -> Status {
    int nr = seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR)
      return Status::success(); // not a system call on this architecture
    int r = seccomp_rule_add_array(c.ctx, SCMP_ACT_ALLOW, nr, count, cmps);
    if (r < 0)
      return fail(name, r);
    return Status::success();
  };

  for (const char *name : Unconditional)
    if (Status s = allow(name); !s)
      return s;

  // Executable memory only for a JIT; otherwise W^X for everything mapped
  // after lockdown.
  if (options.allowExecMemory) {
    if (Status s = allow("mmap"); !s)
      return s;
    if (Status s = allow("mprotect"); !s)
      return s;
  } else {
    scmp_arg_cmp noExec = SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, 0);
    if (Status s = allow("mmap", 1, &noExec); !s)
      return s;
    if (Status s = allow("mprotect", 1, &noExec); !s)
      return s;
  }
  // Threads only: CLONE_THREAD|CLONE_VM set, no namespace or tracing flags;
  // and only where the configuration allows threads after lockdown (a root
  // worker ignores RLIMIT_NPROC, so threads could use up the machine's pids).
  {
    scmp_arg_cmp thread = SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD | CLONE_VM | ForbiddenCloneFlags,
                                  CLONE_THREAD | CLONE_VM);
    if (options.allowThreads)
      if (Status s = allow("clone", 1, &thread); !s)
        return s;
    // clone3 passes its flags in memory the filter cannot read: report it
    // as missing so the C library uses clone.
    int nr = seccomp_syscall_resolve_name("clone3");
    if (nr != __NR_SCMP_ERROR &&
        (rc = seccomp_rule_add(c.ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0)) < 0)
      return fail("clone3", rc);
  }
  // Messages on the channel, without MSG_OOB: out-of-band data on Unix
  // sockets has been a source of kernel bugs reachable from sandboxes
  // (CVE-2025-38236), and the protocol never sends it.
  for (auto [name, flagsArg] : {std::pair{"sendmsg", 2u}, std::pair{"recvmsg", 2u},
                                std::pair{"sendto", 3u}, std::pair{"recvfrom", 3u}}) {
    scmp_arg_cmp noOob = {flagsArg, SCMP_CMP_MASKED_EQ, MSG_OOB, 0};
    if (Status s = allow(name, 1, &noOob); !s)
      return s;
  }
  // Signals to our own threads only (raise, abort, thread cancellation).
  {
    scmp_arg_cmp self = SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(options.selfPid));
    if (Status s = allow("tgkill", 1, &self); !s)
      return s;
  }
  // fcntl: descriptor flags and reading seals; not F_ADD_SEALS, F_SETOWN,
  // F_SETLEASE, F_DUPFD (no new descriptors) and the rest. Standard input,
  // output and error are open file descriptions shared with the host: their
  // status flags (O_NONBLOCK, O_APPEND) and offset are the host's too, so
  // F_SETFL and lseek are for the worker's own descriptors only.
  for (int cmd : {F_GETFD, F_SETFD, F_GETFL, F_GET_SEALS}) {
    scmp_arg_cmp c1 = SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(cmd));
    if (Status s = allow("fcntl", 1, &c1); !s)
      return s;
  }
  // The kernel reads a descriptor's lower 32 bits (`2 | 1 << 32` is
  // descriptor 2), and a rule compares an argument once: 3 exactly, then
  // each range [2^k, 2^(k+1)) below 2^32, with every higher bit clear.
  std::vector<scmp_arg_cmp> own{SCMP_A0(SCMP_CMP_EQ, 3)};
  for (int k = 2; k < 32; ++k)
    own.push_back(SCMP_A0(SCMP_CMP_MASKED_EQ, ~((scmp_datum_t(1) << k) - 1), scmp_datum_t(1) << k));
  for (const scmp_arg_cmp &fd : own) {
    scmp_arg_cmp setfl[] = {fd, SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(F_SETFL))};
    if (Status s = allow("fcntl", 2, setfl); !s)
      return s;
    if (Status s = allow("lseek", 1, &fd); !s)
      return s;
  }
  // madvise: the advice allocators, torch and the CUDA driver give; not
  // MADV_REMOVE (it frees a shared segment's pages under the host),
  // MADV_HWPOISON or MADV_SOFT_OFFLINE, KSM merging, ...
  for (int advice : AllowedAdvice) {
    scmp_arg_cmp c2 = SCMP_A2(SCMP_CMP_EQ, static_cast<scmp_datum_t>(advice));
    if (Status s = allow("madvise", 1, &c2); !s)
      return s;
  }
  // prctl: thread names only (OpenMP and torch name their threads).
  for (int op : {PR_SET_NAME, PR_GET_NAME}) {
    scmp_arg_cmp c1 = SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(op));
    if (Status s = allow("prctl", 1, &c1); !s)
      return s;
  }
  // prlimit64 may read its own limits (new limit pointer NULL), never set
  // them nor read another process's; the scheduler may be asked about this
  // process only (asking about any pid tells which pids exist).
  for (scmp_datum_t pid : {scmp_datum_t(0), static_cast<scmp_datum_t>(options.selfPid)}) {
    scmp_arg_cmp readOwn[] = {SCMP_A0(SCMP_CMP_EQ, pid), SCMP_A2(SCMP_CMP_EQ, 0)};
    if (Status s = allow("prlimit64", 2, readOwn); !s)
      return s;
    for (const char *name : {"sched_getaffinity", "sched_getparam", "sched_getscheduler"})
      if (Status s = allow(name, 1, &readOwn[0]); !s)
        return s;
  }

  // cuda-ipc only: the driver's ioctls, on its own descriptors.
  for (int fd : options.driverIoctlFds) {
    scmp_arg_cmp onFd = SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(fd));
    if (fd < 0)
      return Error::invalid("seccomp: a negative driver descriptor");
    if (Status s = allow("ioctl", 1, &onFd); !s)
      return s;
  }

  if (options.trace) {
    struct sigaction sa = {};
    sa.sa_sigaction = trapHandler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSYS, &sa, nullptr);
  }
  if ((rc = seccomp_load(c.ctx)) < 0)
    return fail("load", rc);
  return Status::success();
}

} // namespace ivc::runtime::worker
