//===- MemoryChannel.cpp - In-process frame queues for FAST mediators -----===//
//
// The FAST tier runs a mediator in a host thread but speaks the same event
// protocol, frame for frame, as a worker does; only the carrier differs.
// Waits release nothing themselves: the Python binding drops the GIL around
// recv, so the mediator thread and the model thread take turns. A wait may
// first poll the queue's counter (spinMicros) rather than sleep at once,
// since waking a thread that sleeps costs more than a turn's work on some
// machines. Having seen a frame, it goes on polling until the sender waits
// too: the sender holds the GIL until then, and a thread that asks for the
// GIL while another holds it sleeps, which would cost the wake-up again.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/transport/Channel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

namespace ivc::runtime {

namespace {

struct Shared {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> toMediator, toHost;
  /// Frames sent so far, to the mediator and to the host: polled without
  /// the lock.
  std::atomic<uint64_t> sentToMediator{0}, sentToHost{0};
  /// Which ends are inside recv (and so hold no GIL).
  std::atomic<bool> hostWaiting{false}, mediatorWaiting{false};
  std::atomic<bool> closed{false}; // written under the lock, polled without
  uint64_t maxFrameBytes;
  uint32_t spinMicros;
};

class MemoryChannel final : public Channel {
public:
  MemoryChannel(std::shared_ptr<Shared> shared, bool isHost)
      : shared_(std::move(shared)), isHost_(isHost) {}
  ~MemoryChannel() override { close(); }

  Status send(std::span<const uint8_t> bytes, std::span<const int> fds,
              Deadline) override {
    if (!fds.empty())
      return Error::invalid("an in-process channel carries no descriptors");
    if (bytes.size() > shared_->maxFrameBytes)
      return Error::invalid("frame of " + std::to_string(bytes.size()) +
                            " bytes exceeds the limit");
    std::lock_guard<std::mutex> lock(shared_->mu);
    if (shared_->closed)
      return Error::closed("peer closed the channel");
    (isHost_ ? shared_->toMediator : shared_->toHost)
        .emplace_back(reinterpret_cast<const char *>(bytes.data()), bytes.size());
    (isHost_ ? shared_->sentToMediator : shared_->sentToHost).fetch_add(1);
    shared_->cv.notify_all();
    return Status::success();
  }

  Result<Frame> recv(Deadline deadline) override {
    std::atomic<bool> &waiting = isHost_ ? shared_->hostWaiting : shared_->mediatorWaiting;
    waiting = true;
    struct Done {
      std::atomic<bool> &flag;
      ~Done() { flag = false; }
    } done{waiting};
    spin(deadline);
    std::unique_lock<std::mutex> lock(shared_->mu);
    auto &queue = isHost_ ? shared_->toHost : shared_->toMediator;
    auto ready = [&] { return !queue.empty() || shared_->closed; };
    if (deadline.isNever())
      shared_->cv.wait(lock, ready);
    else if (!ready() &&
             (deadline.expired() || !shared_->cv.wait_until(lock, deadline.time(), ready)))
      return Error::timeout("deadline passed waiting on the channel");
    if (queue.empty())
      return Error::closed("peer closed the channel");
    Frame f;
    f.bytes = std::move(queue.front());
    queue.pop_front();
    ++received_;
    return f;
  }

  void close() override {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->closed = true;
    shared_->cv.notify_all();
  }

private:
  /// Returns once a frame is waiting and its sender waits too, the channel
  /// closed, or the spin time (within the deadline) is over.
  void spin(Deadline deadline) {
    if (!shared_->spinMicros)
      return;
    const std::atomic<uint64_t> &sent = isHost_ ? shared_->sentToHost : shared_->sentToMediator;
    const std::atomic<bool> &peerWaiting =
        isHost_ ? shared_->mediatorWaiting : shared_->hostWaiting;
    auto until = std::min(Deadline::Clock::now() + std::chrono::microseconds(shared_->spinMicros),
                          deadline.time());
    while (!(sent.load(std::memory_order_acquire) != received_ && peerWaiting.load()) &&
           !shared_->closed.load() && Deadline::Clock::now() < until) {
    }
  }

  std::shared_ptr<Shared> shared_;
  bool isHost_;
  uint64_t received_ = 0;
};

} // namespace

MemoryChannelPair makeMemoryChannelPair(uint64_t maxFrameBytes, uint32_t spinMicros) {
  auto shared = std::make_shared<Shared>();
  shared->maxFrameBytes = maxFrameBytes;
  shared->spinMicros = spinMicros;
  return {std::make_unique<MemoryChannel>(shared, true),
          std::make_unique<MemoryChannel>(shared, false)};
}

} // namespace ivc::runtime
