//===- Pool.h - Warm workers per configuration and tenant -----------------===//
//
// acquire() hands out an idle worker for (config fingerprint, tenant) after
// checking it is alive and silent, or makes a new one (forked from the
// zygote for that preload list, or spawned when zygotes are off or fail).
// release() takes a worker back only after a clean END; a worker that timed
// out, crashed, broke the protocol or raised mid-protocol is retired (its
// process group killed). Workers are never shared across tenants: user
// code may leave state behind in a worker's interpreter.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_POOL_H
#define IVC_RUNTIME_HOST_POOL_H

#include "ivc/runtime/host/StderrRelay.h"
#include "ivc/runtime/host/Watchdog.h"
#include "ivc/runtime/host/Worker.h"
#include "ivc/runtime/host/Zygote.h"

#include <deque>
#include <map>
#include <mutex>

namespace ivc::runtime {

class WorkerPool {
public:
  struct Options {
    WorkerOptions worker;
    /// Idle workers kept per (configuration, tenant).
    size_t maxIdlePerKey = 2;
    /// Idle workers kept in all (many tenants must not mean many idle
    /// processes); the least recently used goes first.
    size_t maxIdleTotal = 8;
    bool useZygote = true;
    /// How much of workers' stderr reaches `worker.stderrFd`.
    StderrRelay::Limits stderrLimits;
  };
  struct Stats {
    uint64_t spawned = 0, forked = 0, reused = 0, retired = 0, deadIdle = 0, evicted = 0;
    uint64_t zygoteStarts = 0, zygoteFailures = 0;
  };

  /// Workers write to a relay into `options.worker.stderrFd`, or straight
  /// to it when the relay cannot start (no descriptors left).
  explicit WorkerPool(Options options);
  ~WorkerPool();

  Result<std::unique_ptr<Worker>> acquire(const SandboxConfig &config, const std::string &tenant);
  /// `clean`: the worker's last job ended with END and nothing else.
  void release(std::unique_ptr<Worker> worker, bool clean);
  /// Starts the zygote for `config` now (so the first trace does not wait).
  Status startZygote(const SandboxConfig &config);

  Watchdog &watchdog() { return watchdog_; }
  /// Bytes of workers' stderr the relay dropped.
  uint64_t stderrDropped() const { return stderrRelay_ ? stderrRelay_->dropped() : 0; }
  Stats stats() const;
  size_t idle() const;
  /// Kills every idle worker and zygote.
  void clear();

private:
  Result<std::unique_ptr<Worker>> make(const SandboxConfig &config);
  /// With mu_ held: the least recently used idle worker, if over the limit.
  std::unique_ptr<Worker> evictOverLimit();

  Options options_;
  // Declared first of what the pool owns: destroyed after every worker.
  std::unique_ptr<StderrRelay> stderrRelay_;
  mutable std::mutex mu_;
  std::map<std::string, std::deque<std::unique_ptr<Worker>>> idle_;
  std::map<std::string, std::unique_ptr<Zygote>> zygotes_;
  Stats stats_;
  Watchdog watchdog_;
};

} // namespace ivc::runtime

#endif
