//===- Canaries.cpp - `ivc-worker --audit`: prove the sandbox refuses -----===//
//
// Each canary is an action a hostile mediator would try. It runs twice, each
// time in a fresh child of this process:
//   unlocked  no lockdown: shows the action works on this machine, so a
//             refusal below is the sandbox's doing and not the kernel's;
//   locked    the exact lockdown a worker applies (applyLockdown and the
//             audit hook with every block flag set), then the action.
// A canary passes when the locked run fails in the expected way: EPERM from
// the seccomp filter (ENOSYS for clone3), SIGSYS for a foreign syscall ABI,
// or a PermissionError from the audit hook naming the expected category.
// The verdicts are computed here, in the parent, which never locks down.
//
//===----------------------------------------------------------------------===//
#include "WorkerModule.h"

#include "ivc/runtime/worker/Lockdown.h"

#include <cerrno>
#include <cstddef>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ivc::runtime::worker {

namespace {

struct Report {
  enum Kind : int { Ok, Errno, PyDenied, PyOther } kind = Ok;
  int value = 0;
  char text[240] = {};
};

struct Outcome {
  enum Kind { Ok, Errno, Signal, PyDenied, PyOther, Broken } kind;
  int value = 0;
  std::string text;
};

struct State {
  int fd = -1;                 // prepared before lockdown
  std::string path;            // a host path for the write canary
  PyObject *globals = nullptr; // Python canaries
};

enum class Expect { Eperm, Enosys, Sigsys, Category };

struct Canary {
  const char *name;
  const char *action;
  Expect expect;
  const char *category = nullptr;   // Expect::Category
  const char *pyPrepare = nullptr;  // trusted Python, before lockdown
  const char *pyRun = nullptr;      // user Python, after lockdown
  Report (*run)(State &) = nullptr; // native canaries
  void (*prepare)(State &) = nullptr;
};

Report fromSyscall(long rc) {
  Report r;
  if (rc < 0) {
    r.kind = Report::Errno;
    r.value = errno;
  }
  return r;
}

std::string g_abstractSocket;

Report openHostFile(State &) {
  return fromSyscall(::syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC));
}
#ifdef SYS_open
Report openLegacy(State &) {
  return fromSyscall(::syscall(SYS_open, "/etc/passwd", O_RDONLY | O_CLOEXEC));
}
#endif
void prepareWrite(State &s) { s.path = "/tmp/ivc-audit-" + std::to_string(::getpid()); }
Report writeOutside(State &s) {
  long rc = ::syscall(SYS_openat, AT_FDCWD, s.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                      0600);
  Report r = fromSyscall(rc);
  if (rc >= 0)
    ::unlink(s.path.c_str());
  return r;
}
Report socketInet(State &) { return fromSyscall(::socket(AF_INET, SOCK_STREAM, 0)); }
void prepareConnect(State &s) { s.fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0); }
Report connectUnix(State &s) {
  struct sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path + 1, g_abstractSocket.data(), g_abstractSocket.size());
  socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + g_abstractSocket.size();
  return fromSyscall(::connect(s.fd, reinterpret_cast<struct sockaddr *>(&addr), len));
}
void prepareSocketPair(State &s) {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) == 0)
    s.fd = fds[0]; // (its peer stays open: a send has somewhere to go)
}
Report sendOutOfBand(State &s) { return fromSyscall(::send(s.fd, "x", 1, MSG_OOB)); }
Report execTrue(State &) {
  char *const argv[] = {const_cast<char *>("true"), nullptr};
  char *const envp[] = {nullptr};
  return fromSyscall(::syscall(SYS_execve, "/bin/true", argv, envp));
}
Report forkProcess(State &) {
  long pid = ::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (pid == 0)
    ::_exit(0);
  if (pid > 0)
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
  return fromSyscall(pid);
}
Report clone3Process(State &) {
  struct clone_args {
    uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
  } args = {};
  args.exit_signal = SIGCHLD;
  long pid = ::syscall(SYS_clone3, &args, sizeof args);
  if (pid == 0)
    ::_exit(0);
  if (pid > 0)
    ::waitpid(static_cast<pid_t>(pid), nullptr, 0);
  return fromSyscall(pid);
}
Report ptraceMe(State &) { return fromSyscall(::ptrace(PTRACE_TRACEME, 0, nullptr, nullptr)); }
Report ioUringSetup(State &) {
  struct io_uring_params p = {};
  return fromSyscall(::syscall(SYS_io_uring_setup, 4, &p));
}
#if defined(__x86_64__)
Report x32Syscall(State &) { return fromSyscall(::syscall(0x40000000 | SYS_getpid)); }
Report i386Syscall(State &) {
  long rc;
  // getpid through the 32-bit entry point (eax = 20).
  asm volatile("int $0x80" : "=a"(rc) : "a"(20L) : "memory");
  Report r;
  if (rc < 0 && rc > -4096) {
    r.kind = Report::Errno;
    r.value = static_cast<int>(-rc);
  }
  return r;
}
#endif
Report killParent(State &) { return fromSyscall(::kill(::getppid(), 0)); }
Report schedulerOfParent(State &) {
  struct sched_param param;
  return fromSyscall(::sched_getparam(::getppid(), &param));
}
Report execMemory(State &) {
  void *p = ::mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
  return fromSyscall(p == MAP_FAILED ? -1 : 0);
}
Report unshareUser(State &) { return fromSyscall(::unshare(CLONE_NEWUSER)); }
void *idle(void *) { return nullptr; }
Report startThread(State &) {
  pthread_t t;
  int rc = ::pthread_create(&t, nullptr, idle, nullptr);
  if (rc == 0)
    ::pthread_join(t, nullptr);
  Report r;
  if (rc != 0) {
    r.kind = Report::Errno;
    r.value = rc;
  }
  return r;
}
// Standard error is an open file description shared with the host; the
// canary puts a seekable one there first, so that unlocked both work.
void prepareStderr(State &) {
  int fd = static_cast<int>(::syscall(SYS_memfd_create, "stderr", 0));
  if (fd >= 0) {
    ::dup2(fd, 2);
    ::close(fd);
  }
}
Report stderrFlags(State &) { return fromSyscall(::fcntl(2, F_SETFL, O_NONBLOCK)); }
Report stderrSeek(State &) { return fromSyscall(::lseek(2, 0, SEEK_SET)); }
// The kernel reads only a descriptor's lower 32 bits.
constexpr long Stderr64 = 2L | (1L << 32);
Report stderrFlags64(State &) { return fromSyscall(::syscall(SYS_fcntl, Stderr64, F_SETFL, O_NONBLOCK)); }
Report stderrSeek64(State &) { return fromSyscall(::syscall(SYS_lseek, Stderr64, 0L, SEEK_SET)); }
Report memfdCreate(State &) { return fromSyscall(::syscall(SYS_memfd_create, "x", 0)); }

const Canary Canaries[] = {
    {"open-host-file", "openat(\"/etc/passwd\", O_RDONLY)", Expect::Eperm, nullptr, nullptr,
     nullptr, openHostFile},
#ifdef SYS_open
    {"open-legacy", "open(\"/etc/passwd\", O_RDONLY)", Expect::Eperm, nullptr, nullptr, nullptr,
     openLegacy},
#endif
    {"write-outside-scratch", "openat(\"/tmp/...\", O_WRONLY|O_CREAT)", Expect::Eperm, nullptr,
     nullptr, nullptr, writeOutside, prepareWrite},
    {"socket", "socket(AF_INET, SOCK_STREAM)", Expect::Eperm, nullptr, nullptr, nullptr,
     socketInet},
    {"connect", "connect(unix socket made before lockdown, listener on host)", Expect::Eperm,
     nullptr, nullptr, nullptr, connectUnix, prepareConnect},
    {"msg-oob", "send(unix socket, MSG_OOB): out-of-band data", Expect::Eperm, nullptr, nullptr,
     nullptr, sendOutOfBand, prepareSocketPair},
    {"execve", "execve(\"/bin/true\")", Expect::Eperm, nullptr, nullptr, nullptr, execTrue},
    {"fork", "clone(SIGCHLD): a new process", Expect::Eperm, nullptr, nullptr, nullptr,
     forkProcess},
    {"clone3", "clone3(exit_signal=SIGCHLD): a new process", Expect::Enosys, nullptr, nullptr,
     nullptr, clone3Process},
    {"ptrace", "ptrace(PTRACE_TRACEME)", Expect::Eperm, nullptr, nullptr, nullptr, ptraceMe},
    {"io_uring", "io_uring_setup(4)", Expect::Eperm, nullptr, nullptr, nullptr, ioUringSetup},
#if defined(__x86_64__)
    {"x32-syscall", "getpid through the x32 ABI", Expect::Sigsys, nullptr, nullptr, nullptr,
     x32Syscall},
    {"i386-syscall", "getpid through int $0x80", Expect::Sigsys, nullptr, nullptr, nullptr,
     i386Syscall},
#endif
    {"kill", "kill(parent, 0)", Expect::Eperm, nullptr, nullptr, nullptr, killParent},
    {"scheduler-of-parent", "sched_getparam(parent)", Expect::Eperm, nullptr, nullptr, nullptr,
     schedulerOfParent},
    {"exec-memory", "mmap(PROT_EXEC)", Expect::Eperm, nullptr, nullptr, nullptr, execMemory},
    {"unshare", "unshare(CLONE_NEWUSER)", Expect::Eperm, nullptr, nullptr, nullptr, unshareUser},
    {"memfd", "memfd_create()", Expect::Eperm, nullptr, nullptr, nullptr, memfdCreate},
    {"thread", "pthread_create (a root worker ignores RLIMIT_NPROC)", Expect::Eperm, nullptr,
     nullptr, nullptr, startThread},
    {"stderr-flags", "fcntl(2, F_SETFL, O_NONBLOCK): the host's stderr", Expect::Eperm, nullptr,
     nullptr, nullptr, stderrFlags, prepareStderr},
    {"stderr-seek", "lseek(2, 0, SEEK_SET): the host's stderr", Expect::Eperm, nullptr, nullptr,
     nullptr, stderrSeek, prepareStderr},
    {"stderr-flags-64", "fcntl(2 | 1 << 32, F_SETFL, O_NONBLOCK): the host's stderr", Expect::Eperm,
     nullptr, nullptr, nullptr, stderrFlags64, prepareStderr},
    {"stderr-seek-64", "lseek(2 | 1 << 32, 0, SEEK_SET): the host's stderr", Expect::Eperm, nullptr,
     nullptr, nullptr, stderrSeek64, prepareStderr},
    {"import-ctypes", "Python: import ctypes", Expect::Category, "ctypes", nullptr,
     "import ctypes"},
    {"python-open", "Python: open('/etc/passwd')", Expect::Category, "file_read", nullptr,
     "open('/etc/passwd').read()"},
    {"python-socket", "Python: socket.socket()", Expect::Category, "network", "import socket",
     "socket.socket()"},
    {"python-subprocess", "Python: os.system('true')", Expect::Category, "subprocess",
     "import os", "os.system('true')"},
    {"python-exec", "Python: exec('x = 1')", Expect::Category, "exec", nullptr, "exec('x = 1')"},
};

Report runPython(const Canary &c, State &s) {
  Report r;
  PyObject *items = Py_BuildValue("[(ss)]", c.pyRun, "<canary>");
  PyObject *res = items ? runUser(items, s.globals) : nullptr;
  Py_XDECREF(items);
  if (res) {
    Py_DECREF(res);
    return r;
  }
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyObject *str = value ? PyObject_Str(value) : nullptr;
  const char *msg = str ? PyUnicode_AsUTF8(str) : nullptr;
  std::string text = msg ? msg : "?";
  std::string want = std::string("category: ") + c.category + ",";
  bool denied = type && PyErr_GivenExceptionMatches(type, PyExc_PermissionError) &&
                text.find(want) != std::string::npos;
  r.kind = denied ? Report::PyDenied : Report::PyOther;
  if (!denied && type)
    text = std::string(reinterpret_cast<PyTypeObject *>(type)->tp_name) + ": " + text;
  std::snprintf(r.text, sizeof r.text, "%s", text.c_str());
  Py_XDECREF(str);
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(tb);
  PyErr_Clear();
  return r;
}

bool g_allowJit = false;

Outcome runOnce(const Canary &c, bool locked) {
  int pipefd[2];
  if (::pipe2(pipefd, O_CLOEXEC) != 0)
    return {Outcome::Broken, errno, "pipe2"};
  PyOS_BeforeFork();
  pid_t pid = ::fork();
  if (pid == 0) {
    PyOS_AfterFork_Child();
    ::close(pipefd[0]);
    State s;
    s.globals = PyDict_New();
    if (c.prepare)
      c.prepare(s);
    if (c.pyPrepare) {
      PyObject *r = PyRun_String(c.pyPrepare, Py_file_input, s.globals, s.globals);
      if (!r)
        ::_exit(3);
      Py_DECREF(r);
    }
    if (locked) {
      std::string netns = enterNetworkNamespace();
      HookPolicy all; // every block flag set, nothing allowlisted
      if (!installAuditHook(all))
        ::_exit(4);
      RlimitConfig rl;
      rl.addressSpaceBytes = 4ull << 30;
      std::vector<int> keep = {pipefd[1]};
      if (s.fd >= 0)
        keep.push_back(s.fd);
      SeccompOptions so;
      so.selfPid = ::getpid();
      so.allowExecMemory = g_allowJit;
      if (!applyLockdown(rl, DefaultWorkerUid, keep, so, netns))
        ::_exit(5);
    }
    Report r = c.pyRun ? runPython(c, s) : c.run(s);
    ssize_t ignored = ::write(pipefd[1], &r, sizeof r);
    (void)ignored;
    ::_exit(0);
  }
  PyOS_AfterFork_Parent();
  ::close(pipefd[1]);
  if (pid < 0) {
    ::close(pipefd[0]);
    return {Outcome::Broken, errno, "fork"};
  }
  Report r;
  size_t got = 0;
  while (got < sizeof r) {
    ssize_t n = ::read(pipefd[0], reinterpret_cast<char *>(&r) + got, sizeof r - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += static_cast<size_t>(n);
  }
  ::close(pipefd[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return {Outcome::Signal, WTERMSIG(status), ""};
  if (got != sizeof r) {
    // execve replaced the child: /bin/true ran and exited.
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      return {Outcome::Ok, 0, "replaced by /bin/true"};
    return {Outcome::Broken, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            "canary child exited without a report"};
  }
  r.text[sizeof r.text - 1] = 0;
  switch (r.kind) {
  case Report::Ok: return {Outcome::Ok, 0, ""};
  case Report::Errno: return {Outcome::Errno, r.value, ""};
  case Report::PyDenied: return {Outcome::PyDenied, 0, r.text};
  case Report::PyOther: return {Outcome::PyOther, 0, r.text};
  }
  return {Outcome::Broken, 0, "bad report"};
}

std::string errnoName(int e) {
  switch (e) {
  case EPERM: return "EPERM";
  case ENOSYS: return "ENOSYS";
  case EACCES: return "EACCES";
  case ENOENT: return "ENOENT";
  case EINVAL: return "EINVAL";
  case EAGAIN: return "EAGAIN";
  case ECONNREFUSED: return "ECONNREFUSED";
  default: return "errno " + std::to_string(e);
  }
}

std::string describe(const Outcome &o) {
  switch (o.kind) {
  case Outcome::Ok: return "succeeds";
  case Outcome::Errno: return errnoName(o.value);
  case Outcome::Signal: return std::string("killed by ") + (o.value == SIGSYS ? "SIGSYS" : strsignal(o.value));
  case Outcome::PyDenied: return "PermissionError: " + o.text;
  case Outcome::PyOther: return o.text.empty() ? "raises" : o.text;
  case Outcome::Broken: return "canary broken: " + o.text + " (" + std::to_string(o.value) + ")";
  }
  return "?";
}

bool refusedAsExpected(const Canary &c, const Outcome &o) {
  switch (c.expect) {
  case Expect::Eperm: return o.kind == Outcome::Errno && o.value == EPERM;
  case Expect::Enosys: return o.kind == Outcome::Errno && o.value == ENOSYS;
  case Expect::Sigsys: return o.kind == Outcome::Signal && o.value == SIGSYS;
  case Expect::Category: return o.kind == Outcome::PyDenied;
  }
  return false;
}

} // namespace

int runAudit(const std::vector<std::string> &pythonPaths, bool verbose, bool allowJit) {
  g_allowJit = allowJit;
  // A listener on the host side for the connect canary (abstract socket:
  // nothing on disk, gone when we exit).
  g_abstractSocket = "ivc-audit-" + std::to_string(::getpid());
  int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr = {};
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path + 1, g_abstractSocket.data(), g_abstractSocket.size());
  socklen_t len = offsetof(struct sockaddr_un, sun_path) + 1 + g_abstractSocket.size();
  if (listener < 0 || ::bind(listener, reinterpret_cast<struct sockaddr *>(&addr), len) != 0 ||
      ::listen(listener, 4) != 0)
    std::perror("ivc-worker: audit listener");

  if (!startPython("ivc-worker", pythonPaths))
    return 2;

  // Whether workers get a network namespace here (reported, not required:
  // the filter keeps sockets out either way).
  {
    int p[2];
    char status[200] = "unknown";
    if (::pipe2(p, O_CLOEXEC) == 0) {
      PyOS_BeforeFork();
      pid_t pid = ::fork();
      if (pid == 0) {
        PyOS_AfterFork_Child();
        std::string s = enterNetworkNamespace();
        ssize_t ignored = ::write(p[1], s.c_str(), s.size());
        (void)ignored;
        ::_exit(0);
      }
      PyOS_AfterFork_Parent();
      ::close(p[1]);
      ssize_t n = pid > 0 ? ::read(p[0], status, sizeof status - 1) : -1;
      status[n > 0 ? n : 0] = 0;
      ::close(p[0]);
      if (pid > 0)
        ::waitpid(pid, nullptr, 0);
    }
    std::printf("%-8s %-22s %s\n", "info", "network-namespace", status[0] ? status : "unknown");
  }
  if (::geteuid() == 0)
    std::printf("%-8s %-22s uid %u by default (SandboxConfig.run_as_uid; cuda-ipc keeps root)\n",
                "info", "worker-user", DefaultWorkerUid);
  else
    std::printf("%-8s %-22s uid %u, the host's\n", "info", "worker-user", ::geteuid());

  int total = 0, refused = 0;
  for (const Canary &c : Canaries) {
    if (allowJit && c.run == execMemory) {
      std::printf("%-8s %-22s %s (the configuration allows executable memory for a JIT)\n",
                  "skipped", c.name, c.action);
      continue;
    }
    ++total;
    Outcome control = runOnce(c, /*locked=*/false);
    Outcome locked = runOnce(c, /*locked=*/true);
    bool ok = refusedAsExpected(c, locked);
    // A canary the machine refuses anyway proves nothing about the sandbox
    // unless the refusal is the sandbox's own signature.
    std::string note = "unlocked: " + describe(control);
    if (ok && refusedAsExpected(c, control)) {
      note += "; the sandbox's refusal cannot be told apart here";
    }
    refused += ok;
    std::printf("%-8s %-22s %s -> %s (%s)\n", ok ? "refused" : "FAILED", c.name, c.action,
                describe(locked).c_str(), note.c_str());
    if (verbose && !ok)
      std::printf("         expected the locked run to be refused by the sandbox\n");
  }
  std::printf("ivc audit: %d of %d canaries refused\n", refused, total);
  std::fflush(stdout);
  if (listener >= 0)
    ::close(listener);
  return refused == total ? 0 : 1;
}

} // namespace ivc::runtime::worker
