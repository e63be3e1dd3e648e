//===- Zygote.h - A pre-initialized worker that forks fresh workers -------===//
//
// Starting a worker costs a Python start and `import torch` (seconds). The
// zygote pays that once: it is an ivc-worker that imported the preload list
// and never runs user code or locks down. On request it forks; the child
// takes a new process group and network namespace, receives its job and
// locks down exactly like a spawned worker.
//
//   host -> zygote  ("zygote-init", {"preload": [...]})
//   zygote -> host  ("zygote-ready", {"pid": int})
//   host -> zygote  ("fork",) + the child's channel fd
//   zygote -> host  ("forked", {"pid": int}) + a pidfd for the child
//
// The zygote reaps its children; the host watches them through the pidfds.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_ZYGOTE_H
#define IVC_RUNTIME_HOST_ZYGOTE_H

#include "ivc/runtime/host/Worker.h"

namespace ivc::runtime {

class Zygote {
public:
  ~Zygote();
  static Result<std::unique_ptr<Zygote>> start(const WorkerOptions &options,
                                               const SandboxConfig &config);
  /// A fresh worker for `config` (whose preload list must be this zygote's),
  /// handshaken and locked down.
  Result<std::unique_ptr<Worker>> fork(const SandboxConfig &config);
  bool alive() const;
  pid_t pid() const { return pid_; }

private:
  Zygote() = default;
  pid_t pid_ = -1;
  UniqueFd pidfd_;
  std::unique_ptr<SocketChannel> channel_;
};

} // namespace ivc::runtime

#endif
