//===- Spawn.cpp - Starting ivc-worker processes --------------------------===//
//
// posix_spawn rather than fork+exec: the host is a multi-threaded Python
// process, where only async-signal-safe code may run between fork and exec.
// The child gets exactly: its channel as fd 3, /dev/null as stdin, the
// chosen stderr as fds 1 and 2, default signal dispositions (Python ignores
// SIGPIPE, which exec would otherwise pass on), an empty signal mask, its
// own process group, and an environment with nothing in it but a locale.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/host/Worker.h"

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>

namespace ivc::runtime {

std::vector<std::string> workerArgv(const WorkerOptions &options, bool seccompTrace) {
  std::vector<std::string> argv = {options.workerPath};
  if (!options.pythonPath.empty()) {
    std::string joined;
    for (const std::string &p : options.pythonPath) {
      if (!joined.empty())
        joined += ':';
      joined += p;
    }
    argv.push_back("--python-path");
    argv.push_back(joined);
  }
  if (seccompTrace)
    argv.push_back("--seccomp-trace");
  return argv;
}

Result<UniqueFd> openPidfd(pid_t pid) {
  int fd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (fd < 0)
    return Error::fromErrno("pidfd_open");
  return UniqueFd(fd);
}

Result<pid_t> spawnProcess(const std::vector<std::string> &argvIn, int fd3, int stderrFd,
                           int stdoutFd) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&fa);
  posix_spawnattr_init(&attr);
  struct Cleanup {
    posix_spawn_file_actions_t *fa;
    posix_spawnattr_t *attr;
    ~Cleanup() {
      posix_spawn_file_actions_destroy(fa);
      posix_spawnattr_destroy(attr);
    }
  } cleanup{&fa, &attr};

  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  // The worker writes to stderr through a description of its own, opened
  // write-only: a log the host opened read-write ('a+') is then neither
  // readable nor mappable by it. (A socket cannot be reopened; it is
  // shared as it is.)
  // (Non-blocking to open: a pipe whose reader left would block the open
  // forever; blocking again for the worker's writes.)
  std::string source = "/proc/self/fd/" + std::to_string(stderrFd >= 0 ? stderrFd : 2);
  UniqueFd writeOnly(::open(source.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK));
  if (writeOnly.valid() && ::fcntl(writeOnly.get(), F_SETFL, O_APPEND) == 0)
    stderrFd = writeOnly.get();
  if (stderrFd >= 0)
    posix_spawn_file_actions_adddup2(&fa, stderrFd, 2);
  if (stdoutFd >= 0)
    posix_spawn_file_actions_adddup2(&fa, stdoutFd, 1);
  else
    posix_spawn_file_actions_adddup2(&fa, 2, 1);
  if (fd3 >= 0)
    posix_spawn_file_actions_adddup2(&fa, fd3, 3); // clears close-on-exec
  posix_spawn_file_actions_addclosefrom_np(&fa, fd3 >= 0 ? 4 : 3);

  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  sigdelset(&all, SIGKILL);
  sigdelset(&all, SIGSTOP);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);

  std::vector<char *> argv;
  for (const std::string &a : argvIn)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  char locale[] = "LC_ALL=C.UTF-8";
  char *envp[] = {locale, nullptr};
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, &attr, argv.data(), envp);
  if (rc != 0) {
    errno = rc;
    return Error::fromErrno("posix_spawn " + argvIn[0]);
  }
  return pid;
}

Result<std::unique_ptr<Worker>> spawnWorker(const WorkerOptions &options,
                                            const SandboxConfig &config) {
  Deadline deadline = Deadline::afterMs(static_cast<int64_t>(config.startTimeoutMs));
  Result<std::pair<UniqueFd, UniqueFd>> pair = SocketChannel::socketPair();
  if (!pair)
    return pair.takeError();
  std::vector<std::string> argv = workerArgv(options, config.seccompTrace);
  argv.push_back("--channel-fd");
  argv.push_back("3");
  Result<pid_t> pid = spawnProcess(argv, pair->second.get(), options.stderrFd);
  if (!pid)
    return pid.takeError();
  pair->second.reset();
  Result<UniqueFd> pidfd = openPidfd(*pid);
  if (!pidfd) {
    ::kill(*pid, SIGKILL);
    ::waitpid(*pid, nullptr, 0);
    return pidfd.takeError();
  }
  Result<std::unique_ptr<Worker>> worker =
      Worker::adopt(*pid, std::move(*pidfd), std::move(pair->first), config, /*ourChild=*/true);
  if (!worker)
    return worker;
  if (Status s = (*worker)->handshake(deadline); !s)
    return s.error();
  return worker;
}

} // namespace ivc::runtime
