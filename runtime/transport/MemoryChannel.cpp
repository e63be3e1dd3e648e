//===- MemoryChannel.cpp - In-process frame queues for FAST mediators -----===//
//
// The FAST tier runs a mediator in a host thread but speaks the same event
// protocol, frame for frame, as a worker does; only the carrier differs.
// Waits release nothing themselves: the Python binding drops the GIL around
// recv, so the mediator thread and the model thread take turns.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/transport/Channel.h"

#include <condition_variable>
#include <deque>
#include <mutex>

namespace ivc::runtime {

namespace {

struct Shared {
  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> toMediator, toHost;
  bool closed = false;
  uint64_t maxFrameBytes;
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
    shared_->cv.notify_all();
    return Status::success();
  }

  Result<Frame> recv(Deadline deadline) override {
    std::unique_lock<std::mutex> lock(shared_->mu);
    auto &queue = isHost_ ? shared_->toHost : shared_->toMediator;
    auto ready = [&] { return !queue.empty() || shared_->closed; };
    if (deadline.isNever())
      shared_->cv.wait(lock, ready);
    else if (!shared_->cv.wait_until(lock, deadline.time(), ready))
      return Error::timeout("deadline passed waiting on the channel");
    if (queue.empty())
      return Error::closed("peer closed the channel");
    Frame f;
    f.bytes = std::move(queue.front());
    queue.pop_front();
    return f;
  }

  void close() override {
    std::lock_guard<std::mutex> lock(shared_->mu);
    shared_->closed = true;
    shared_->cv.notify_all();
  }

private:
  std::shared_ptr<Shared> shared_;
  bool isHost_;
};

} // namespace

MemoryChannelPair makeMemoryChannelPair(uint64_t maxFrameBytes) {
  auto shared = std::make_shared<Shared>();
  shared->maxFrameBytes = maxFrameBytes;
  return {std::make_unique<MemoryChannel>(shared, true),
          std::make_unique<MemoryChannel>(shared, false)};
}

} // namespace ivc::runtime
