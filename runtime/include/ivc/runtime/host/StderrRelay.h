//===- StderrRelay.h - Workers' stderr, passed on at a capped rate --------===//
//
// Workers share one pipe for stderr. A host thread drains it into the
// host's stderr (or the sink the embedder chose) through a token bucket, so
// a worker that writes without end costs the host's log at most a burst and
// then a trickle; what is over is dropped and counted in a line of ivc's
// own, at most one a second. Every line a worker writes starts with
// "[worker] ", so none passes for the host's own. Draining never stops,
// so a worker never blocks on a full pipe while the host's sink keeps up.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_STDERRRELAY_H
#define IVC_RUNTIME_HOST_STDERRRELAY_H

#include "ivc/runtime/support/Result.h"
#include "ivc/runtime/transport/Fd.h"

#include <atomic>
#include <cstddef>
#include <memory>
#include <string_view>
#include <thread>

namespace ivc::runtime {

class StderrRelay {
public:
  /// What starts every line a worker writes.
  static constexpr std::string_view WorkerPrefix = "[worker] ";
  /// A worker's unfinished line is held this long, or up to this size,
  /// then written cut (with a '\n').
  static constexpr int HeldLineMs = 100;
  static constexpr size_t HeldLineBytes = 4096;

  struct Limits {
    size_t burstBytes = 256 << 10;
    size_t bytesPerSecond = 16 << 10;
  };

  /// Relays into `sinkFd` (duplicated; -1 for the host's stderr).
  static Result<std::unique_ptr<StderrRelay>> start(int sinkFd, Limits limits);
  ~StderrRelay();
  StderrRelay(const StderrRelay &) = delete;
  StderrRelay &operator=(const StderrRelay &) = delete;

  /// The pipe's write end, for workers' fd 2.
  int writeFd() const { return writeEnd_.get(); }
  /// Bytes dropped so far (for tests and stats).
  uint64_t dropped() const { return droppedTotal_.load(); }

private:
  StderrRelay(UniqueFd sink, UniqueFd readEnd, UniqueFd writeEnd, UniqueFd stopRead,
              UniqueFd stopWrite, Limits limits);
  void loop();

  UniqueFd sink_, readEnd_, writeEnd_, stopRead_, stopWrite_;
  Limits limits_;
  std::atomic<uint64_t> droppedTotal_{0};
  std::thread thread_;
};

} // namespace ivc::runtime

#endif
