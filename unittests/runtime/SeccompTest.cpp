//===- SeccompTest.cpp - The lockdown, applied in forked children ----------===//
//
// Each case forks, locks the child down exactly as a worker does, and has
// it report through its exit status, so the test process stays unfiltered.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/worker/Lockdown.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <functional>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace ivc::runtime::worker;

namespace {

// Runs `body` in a locked-down child; returns its wait status.
int locked(const std::function<int()> &body, bool allowExec = false, bool allowThreads = false) {
  pid_t pid = ::fork();
  if (pid == 0) {
    SeccompOptions so;
    so.selfPid = ::getpid();
    so.allowExecMemory = allowExec;
    so.allowThreads = allowThreads;
    RlimitConfig rl;
    rl.addressSpaceBytes = 1ull << 32;
    // As in the worker: only the cuda-ipc configuration (threads) keeps root.
    if (!applyLockdown(rl, allowThreads ? 0 : DefaultWorkerUid, {}, so, "test"))
      ::_exit(100);
    ::_exit(body());
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

int exitCode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status); }

// 0 when the call failed with `expected`, 1 when it succeeded, 2 otherwise.
int refusedWith(long rc, int expected) {
  if (rc >= 0)
    return 1;
  return errno == expected ? 0 : 2;
}

TEST(Seccomp, AllowsWhatAWorkerNeeds) {
  EXPECT_EQ(exitCode(locked([] {
              void *m = ::mmap(nullptr, 1 << 20, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
              if (m == MAP_FAILED)
                return 10;
              static_cast<char *>(m)[5] = 1;
              if (::getpid() <= 0 || ::write(2, "", 0) < 0)
                return 11;
              struct rlimit r;
              if (::getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur != (1ull << 32))
                return 13;
              char name[16];
              if (::prctl(PR_GET_NAME, name) != 0)
                return 14;
              return 0;
            })),
            0);
}

// Threads after lockdown only where the configuration allows them (the
// cuda-ipc transport's driver): a root worker ignores RLIMIT_NPROC.
TEST(Seccomp, ThreadsOnlyWhereTheConfigurationAllowsThem) {
  auto startThread = [] {
    // glibc tries clone3 (ENOSYS here) and falls back to clone with
    // CLONE_THREAD.
    pthread_t t;
    int rc = ::pthread_create(&t, nullptr, [](void *) -> void * { return nullptr; }, nullptr);
    if (rc == 0)
      ::pthread_join(t, nullptr);
    return rc == 0 ? 1 : rc == EPERM ? 0 : 2;
  };
  EXPECT_EQ(exitCode(locked(startThread)), 0);
  EXPECT_EQ(exitCode(locked(startThread, false, /*allowThreads=*/true)), 1);
}

TEST(Seccomp, RefusesFilesNetworkProcessesAndTracing) {
  struct Case {
    const char *what;
    std::function<int()> body;
  } cases[] = {
      {"openat read", [] { return refusedWith(::open("/etc/passwd", O_RDONLY), EPERM); }},
      {"openat write",
       [] { return refusedWith(::open("/tmp/ivc-seccomp-test", O_WRONLY | O_CREAT, 0600), EPERM); }},
      {"socket", [] { return refusedWith(::socket(AF_INET, SOCK_STREAM, 0), EPERM); }},
      {"socketpair",
       [] {
         int sv[2];
         return refusedWith(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), EPERM);
       }},
      {"fork", [] { return refusedWith(::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0), EPERM); }},
      {"clone with a thread flag and a namespace",
       [] {
         return refusedWith(::syscall(SYS_clone, CLONE_THREAD | CLONE_VM | CLONE_SIGHAND |
                                                     CLONE_NEWNET, 0, 0, 0, 0),
                            EPERM);
       }},
      {"vfork", [] { return refusedWith(::syscall(SYS_vfork), EPERM); }},
      {"clone3", [] {
         uint64_t args[11] = {};
         return refusedWith(::syscall(SYS_clone3, args, sizeof args), ENOSYS);
       }},
      {"execve",
       [] {
         char *argv[] = {const_cast<char *>("true"), nullptr};
         return refusedWith(::execve("/bin/true", argv, nullptr), EPERM);
       }},
      {"kill parent", [] { return refusedWith(::kill(::getppid(), 0), EPERM); }},
      {"tgkill another process",
       [] { return refusedWith(::syscall(SYS_tgkill, ::getppid(), ::getppid(), 0), EPERM); }},
      {"ptrace", [] { return refusedWith(::syscall(SYS_ptrace, 0 /*TRACEME*/, 0, 0, 0), EPERM); }},
      {"io_uring_setup",
       [] {
         char params[120] = {};
         return refusedWith(::syscall(SYS_io_uring_setup, 4, params), EPERM);
       }},
      {"memfd_create", [] { return refusedWith(::syscall(SYS_memfd_create, "x", 0), EPERM); }},
      {"unshare", [] { return refusedWith(::unshare(CLONE_NEWUSER), EPERM); }},
      {"re-enable dumping", [] { return refusedWith(::prctl(PR_SET_DUMPABLE, 1), EPERM); }},
      {"fcntl F_DUPFD", [] { return refusedWith(::fcntl(2, F_DUPFD, 0), EPERM); }},
      {"raise a limit",
       [] {
         struct rlimit r = {RLIM_INFINITY, RLIM_INFINITY};
         return refusedWith(::setrlimit(RLIMIT_AS, &r), EPERM);
       }},
      {"executable memory",
       [] {
         void *m = ::mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
         return refusedWith(m == MAP_FAILED ? -1 : 0, EPERM);
       }},
      {"make memory executable",
       [] {
         void *m = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
         return refusedWith(::mprotect(m, 4096, PROT_READ | PROT_EXEC), EPERM);
       }},
      {"stat a path", [] { return refusedWith(::access("/etc/passwd", F_OK), EPERM); }},
  };
  for (const Case &c : cases)
    EXPECT_EQ(exitCode(locked(c.body)), 0) << c.what << " (1: it succeeded, 2: wrong errno)";
}

TEST(Seccomp, ForeignAbiKillsTheProcess) {
#if defined(__x86_64__)
  EXPECT_EQ(exitCode(locked([] { return (int)::syscall(0x40000000 | SYS_getpid) * 0 + 3; })),
            -SIGSYS);
  EXPECT_EQ(exitCode(locked([] {
              long rc;
              asm volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
              return 3;
            })),
            -SIGSYS);
#else
  GTEST_SKIP() << "x86-64 only";
#endif
}

TEST(Seccomp, ExecutableMemoryWhenAJitIsAllowed) {
  EXPECT_EQ(exitCode(locked(
                [] {
                  void *m = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
                  return m == MAP_FAILED ? 1 : 0;
                },
                /*allowExec=*/true)),
            0);
}

TEST(Lockdown, ClosesEveryOtherDescriptor) {
  int keep = ::open("/dev/null", O_RDONLY);
  int drop = ::open("/dev/null", O_RDONLY);
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!closeOtherFds({keep}))
      ::_exit(9);
    bool keptOk = ::fcntl(keep, F_GETFD) >= 0;
    bool dropped = ::fcntl(drop, F_GETFD) < 0 && errno == EBADF;
    ::_exit(keptOk && dropped ? 0 : 1);
  }
  int status;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(exitCode(status), 0);
  ::close(keep);
  ::close(drop);
}

// What the raw syscall reports is the calling thread's own credential.
std::atomic<long> g_threadUid{-1};
std::atomic<bool> g_lockedDown{false};

TEST(Lockdown, RootWorkerBecomesNobodyOnEveryThread) {
  if (::geteuid() != 0)
    GTEST_SKIP() << "needs root: only a root worker changes user";
  pid_t pid = ::fork();
  if (pid == 0) {
    // A thread started before lockdown, as torch's pool is.
    pthread_t t;
    ::pthread_create(
        &t, nullptr,
        [](void *) -> void * {
          while (!g_lockedDown)
            ::usleep(1000);
          g_threadUid = ::syscall(SYS_getuid);
          return nullptr;
        },
        nullptr);
    SeccompOptions so;
    so.selfPid = ::getpid();
    RlimitConfig rl;
    rl.addressSpaceBytes = 1ull << 32;
    ivc::runtime::Result<LockdownFacts> facts = applyLockdown(rl, DefaultWorkerUid, {}, so, "test");
    if (!facts)
      ::_exit(100);
    g_lockedDown = true;
    ::pthread_join(t, nullptr);
    uid_t r, e, s;
    gid_t gr, ge, gs;
    ::getresuid(&r, &e, &s);
    ::getresgid(&gr, &ge, &gs);
    if (r != DefaultWorkerUid || e != r || s != r || facts->uid != r)
      ::_exit(1);
    if (gr != DefaultWorkerUid || ge != gr || gs != gr || ::getgroups(0, nullptr) != 0)
      ::_exit(2);
    if (g_threadUid != long(DefaultWorkerUid))
      ::_exit(3);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(exitCode(status), 0);
}

// A user namespace that maps only root (and so refuses setgroups too):
// switching to nobody must fail, and say which setting names the user.
TEST(Lockdown, UnmappedUserFailsNamingTheSetting) {
  int p[2];
  ASSERT_EQ(::pipe(p), 0);
  uid_t outer = ::geteuid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    auto writeFile = [](const char *path, const std::string &text) {
      int fd = ::open(path, O_WRONLY);
      bool ok = fd >= 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size());
      if (fd >= 0)
        ::close(fd);
      return ok;
    };
    if (::unshare(CLONE_NEWUSER) != 0 ||
        !writeFile("/proc/self/uid_map", "0 " + std::to_string(outer) + " 1"))
      ::_exit(77); // no user namespaces here
    ivc::runtime::Status s = switchUser(DefaultWorkerUid);
    std::string message = s ? "" : s.error().message;
    ssize_t ignored = ::write(p[1], message.data(), message.size());
    (void)ignored;
    ::_exit(s ? 1 : 0);
  }
  ::close(p[1]);
  char buf[256] = {};
  ssize_t n = ::read(p[0], buf, sizeof buf - 1);
  ::close(p[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (exitCode(status) == 77)
    GTEST_SKIP() << "no unprivileged user namespaces on this machine";
  EXPECT_EQ(exitCode(status), 0);
  EXPECT_NE(std::string(buf, n > 0 ? size_t(n) : 0).find("SandboxConfig.run_as_uid"),
            std::string::npos)
      << buf;
}

TEST(Lockdown, UidZeroKeepsTheUser) {
  uid_t before = ::getuid();
  pid_t pid = ::fork();
  if (pid == 0) {
    SeccompOptions so;
    so.selfPid = ::getpid();
    ivc::runtime::Result<LockdownFacts> facts = applyLockdown(RlimitConfig{}, 0, {}, so, "test");
    ::_exit(facts && ::getuid() == before && facts->uid == before ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  EXPECT_EQ(exitCode(status), 0);
}

TEST(Lockdown, Rlimits) {
  EXPECT_EQ(exitCode(locked([] {
              struct rlimit r;
              ::getrlimit(RLIMIT_FSIZE, &r);
              if (r.rlim_cur != 0 || r.rlim_max != 0)
                return 1;
              ::getrlimit(RLIMIT_CORE, &r);
              if (r.rlim_max != 0)
                return 2;
              ::getrlimit(RLIMIT_NOFILE, &r);
              if (r.rlim_cur != 64)
                return 3;
              // A memory bomb fails cleanly at the address-space limit (4 GiB).
              void *m = ::mmap(nullptr, 8ull << 30, PROT_READ | PROT_WRITE,
                               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
              if (m != MAP_FAILED || errno != ENOMEM)
                return 4;
              return 0;
            })),
            0);
}

// ioctl(FIONREAD) on the two ends of a pipe made before lockdown, with
// `driverFd` (0: the read end, 1: the write end, -1: none) given to the filter
// as the cuda-ipc transport's driver descriptor. Exit status: bit 0 set when
// the read end's ioctl was refused with EPERM, bit 1 for the write end.
int ioctlRefusals(int driverFd) {
  pid_t pid = ::fork();
  if (pid == 0) {
    int p[2];
    if (::pipe(p) != 0)
      ::_exit(100);
    SeccompOptions so;
    so.selfPid = ::getpid();
    if (driverFd >= 0)
      so.driverIoctlFds = {p[driverFd]};
    RlimitConfig rl;
    rl.addressSpaceBytes = 1ull << 32;
    if (!applyLockdown(rl, driverFd >= 0 ? 0 : DefaultWorkerUid, {p[0], p[1]}, so, "test"))
      ::_exit(101);
    int refused = 0;
    for (int end = 0; end < 2; ++end) {
      int n = 0;
      if (::ioctl(p[end], FIONREAD, &n) != 0 && errno == EPERM)
        refused |= 1 << end;
    }
    ::_exit(refused);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return exitCode(status);
}

TEST(Seccomp, CpuConfigurationHasNoIoctl) {
  // The shared-memory transport's filter is unchanged: ioctl on any
  // descriptor, even one the worker holds, is refused.
  EXPECT_EQ(ioctlRefusals(-1), 3);
  std::vector<std::string> names = seccompAllowedSyscalls();
  EXPECT_EQ(std::count(names.begin(), names.end(), "ioctl"), 0);
}

TEST(Seccomp, CudaTransportAllowsIoctlOnTheDriverDescriptorsOnly) {
  EXPECT_EQ(ioctlRefusals(0), 2); // allowed on the read end only
  EXPECT_EQ(ioctlRefusals(1), 1); // allowed on the write end only
}

// In a locked-down child holding a socket pair: 0 when the channel's
// messages go through and MSG_OOB is refused in each of the four calls.
int outOfBandRefusals() {
  pid_t pid = ::fork();
  if (pid == 0) {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0)
      ::_exit(100);
    SeccompOptions so;
    so.selfPid = ::getpid();
    RlimitConfig rl;
    rl.addressSpaceBytes = 1ull << 32;
    if (!applyLockdown(rl, DefaultWorkerUid, {fds[0], fds[1]}, so, "test"))
      ::_exit(101);
    char byte = 'x';
    struct iovec io = {&byte, 1};
    struct msghdr msg = {};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    if (::send(fds[0], &byte, 1, 0) != 1 || ::recv(fds[1], &byte, 1, 0) != 1 ||
        ::sendmsg(fds[0], &msg, 0) != 1 || ::recvmsg(fds[1], &msg, 0) != 1)
      ::_exit(102);
    ::_exit(refusedWith(::send(fds[0], &byte, 1, MSG_OOB), EPERM) |
            refusedWith(::sendmsg(fds[0], &msg, MSG_OOB), EPERM) << 2 |
            refusedWith(::recv(fds[1], &byte, 1, MSG_OOB | MSG_DONTWAIT), EPERM) << 4 |
            refusedWith(::recvmsg(fds[1], &msg, MSG_OOB | MSG_DONTWAIT), EPERM) << 6);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return exitCode(status);
}

TEST(Seccomp, MessagesButNotOutOfBandData) { EXPECT_EQ(outOfBandRefusals(), 0); }

TEST(Seccomp, AllowListIsNamed) {
  std::vector<std::string> names = seccompAllowedSyscalls();
  for (const char *forbidden : {"open", "openat", "socket", "connect", "execve", "fork", "ptrace",
                                "io_uring_setup", "clone3", "memfd_create", "ioctl"})
    EXPECT_EQ(std::count(names.begin(), names.end(), forbidden), 0) << forbidden;
}

} // namespace
