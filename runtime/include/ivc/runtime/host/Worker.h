//===- Worker.h - One ivc-worker process, seen from the host --------------===//
//
// A Worker owns the process (through a pidfd, so signals never reach a
// recycled pid), its process group, the host end of its channel and its
// shared-memory arena. Destroying a Worker kills the whole process group.
//
// Lifecycle messages (encoded values, docs/runtime.md "Protocol"):
//   host -> worker  ("init", config, [(space, size, role), ...]) + segment fds
//                   with the cuda-ipc transport, a fourth item: the device
//                   arena's announcement (CudaAnnouncement)
//   worker -> host  ("ready", {"pid": int, "facts": {...}})
// after which the worker waits for jobs (ivc/_interleaver.py drives them).
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_WORKER_H
#define IVC_RUNTIME_HOST_WORKER_H

#include "ivc/runtime/codec/Value.h"
#include "ivc/runtime/host/SandboxConfig.h"
#include "ivc/runtime/support/Deadline.h"
#include "ivc/runtime/support/Result.h"
#include "ivc/runtime/transport/Channel.h"
#include "ivc/runtime/transport/CudaArena.h"
#include "ivc/runtime/transport/TensorSpace.h"

#include <chrono>
#include <memory>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ivc::runtime {

struct WorkerOptions {
  /// The ivc-worker binary.
  std::string workerPath;
  /// sys.path of the worker's interpreter; empty: the binary's built-in one.
  std::vector<std::string> pythonPath;
  /// Where the worker's stderr goes; -1: the host's stderr.
  int stderrFd = -1;
};

class Worker {
public:
  ~Worker();
  Worker(const Worker &) = delete;
  Worker &operator=(const Worker &) = delete;

  pid_t pid() const { return pid_; }
  /// Unique for the life of the host process (pids are recycled).
  uint64_t id() const { return id_; }
  int pidfd() const { return pidfd_.get(); }
  SocketChannel &channel() { return *channel_; }
  ShmArena &arena() { return *arena_; }
  /// The device arena (cuda-ipc transport), or null. Shared: views of it
  /// the host made keep it alive.
  const std::shared_ptr<CudaHostArena> &cudaArena() const { return cudaArena_; }
  const SandboxConfig &config() const { return config_; }
  /// What the worker reported about its lockdown in READY.
  const codec::Value &facts() const { return facts_; }
  /// How the worker was made: "spawn" or "zygote".
  const char *origin() const { return ourChild_ ? "spawn" : "zygote"; }

  /// The process has exited (it may not be reaped yet).
  bool exited() const;
  /// Alive, and has sent nothing since its last reply (an idle worker must
  /// stay silent; anything else means it is dead or misbehaving).
  bool idleAndAlive() const;
  /// SIGKILL to the process and its process group. Idempotent.
  void kill();
  /// Stops the process while it waits in the pool (SIGSTOP): an idle worker
  /// runs nothing, whatever its code left running past its job's end.
  void pause();
  /// Lets a paused worker run again (SIGCONT).
  void resume();

  uint32_t jobs = 0;
  std::string poolKey;
  /// When the pool last took it back (least recently used goes first).
  std::chrono::steady_clock::time_point idleSince;

  /// Sends the job (config and segments) and waits for READY.
  Status handshake(Deadline deadline);

  /// Takes ownership of a started process. `ourChild`: we must reap it.
  static Result<std::unique_ptr<Worker>> adopt(pid_t pid, UniqueFd pidfd, UniqueFd channel,
                                               const SandboxConfig &config, bool ourChild);

private:
  Worker() = default;
  pid_t pid_ = -1;
  uint64_t id_ = 0;
  UniqueFd pidfd_;
  bool ourChild_ = false;
  bool killed_ = false;
  std::unique_ptr<SocketChannel> channel_;
  std::unique_ptr<ShmArena> arena_;
  std::shared_ptr<CudaHostArena> cudaArena_;
  SandboxConfig config_;
  codec::Value facts_;
};

/// Execs ivc-worker, waits until it has imported its preload list and
/// locked down (READY). Slow: a Python start and `import torch`.
Result<std::unique_ptr<Worker>> spawnWorker(const WorkerOptions &options,
                                            const SandboxConfig &config);

/// argv for ivc-worker (without the mode flags).
std::vector<std::string> workerArgv(const WorkerOptions &options, bool seccompTrace);

/// posix_spawn with `fd3` as descriptor 3 (if >= 0), a new process group,
/// default signal dispositions, no other inherited descriptors. stdout goes
/// to `stdoutFd`, or to stderr when it is -1. Returns the pid.
Result<pid_t> spawnProcess(const std::vector<std::string> &argv, int fd3, int stderrFd,
                           int stdoutFd = -1);

/// pidfd_open(2).
Result<UniqueFd> openPidfd(pid_t pid);

/// Decodes a frame from a worker with the host's limits.
Result<codec::Value> decodeFrame(const Frame &frame);

} // namespace ivc::runtime

#endif
