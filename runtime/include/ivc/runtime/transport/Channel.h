//===- Channel.h - Framed messages between the host and a mediator -------===//
//
// A Channel moves whole frames (encoded values) in order. Two kinds:
//   SocketChannel  one end of a socketpair to a worker process; frames are
//                  length-prefixed; descriptors (shared-memory segments) can
//                  ride along host->worker; every wait honours a Deadline.
//   MemoryChannel  a pair of in-process queues, for FAST mediators running
//                  in a host thread. Same interface, so the event protocol
//                  above it is the same code in both tiers.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_CHANNEL_H
#define IVC_RUNTIME_TRANSPORT_CHANNEL_H

#include "ivc/runtime/support/Deadline.h"
#include "ivc/runtime/support/Result.h"
#include "ivc/runtime/transport/Fd.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ivc::runtime {

struct Frame {
  std::string bytes;
  /// Descriptors that came with the frame (only when the receiver accepts them).
  std::vector<UniqueFd> fds;
};

class Channel {
public:
  virtual ~Channel() = default;
  /// Sends one frame; `fds` travel with it (SocketChannel only).
  virtual Status send(std::span<const uint8_t> bytes, std::span<const int> fds,
                      Deadline deadline) = 0;
  Status send(const std::string &bytes, Deadline deadline) {
    return send({reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()}, {}, deadline);
  }
  /// Receives one frame, waiting until `deadline` at most.
  virtual Result<Frame> recv(Deadline deadline) = 0;
  /// Closes this end; the peer's next recv fails with Error::Closed.
  virtual void close() = 0;
};

/// Frame header on a socket: magic, then the payload length (both u32 LE).
constexpr uint32_t FrameMagic = 0x31435649; // "IVC1"
constexpr size_t FrameHeaderBytes = 8;
constexpr size_t MaxFdsPerFrame = 16;

class SocketChannel final : public Channel {
public:
  struct Options {
    /// Frames longer than this are a protocol violation (checked before
    /// reading the body).
    uint64_t maxFrameBytes = 16u << 20;
    /// Whether descriptors may arrive with frames. The host never accepts
    /// descriptors from a worker: they are discarded by the kernel and the
    /// attempt is reported as a protocol violation.
    bool acceptFds = false;
    /// How long a wait for the peer polls before it sleeps. Waking a
    /// process that sleeps in poll(2) costs tens of microseconds on some
    /// virtual machines, more than a whole round trip's work; polling
    /// burns this side's CPU instead. 0: sleep at once.
    uint32_t spinMicros = 0;
  };

  SocketChannel(UniqueFd fd, Options options);
  /// A connected pair (AF_UNIX, SOCK_STREAM, close-on-exec). The host keeps
  /// the first, the worker inherits the second.
  static Result<std::pair<UniqueFd, UniqueFd>> socketPair();

  Status send(std::span<const uint8_t> bytes, std::span<const int> fds,
              Deadline deadline) override;
  using Channel::send;
  Result<Frame> recv(Deadline deadline) override;
  void close() override { fd_.reset(); }

  int fd() const { return fd_.get(); }
  void setSpinMicros(uint32_t micros) { options_.spinMicros = micros; }
  /// An idle peer never writes: readable or hung up means it is dead or
  /// misbehaving. Does not block.
  bool peerIdleAndAlive() const;

private:
  Status readFully(uint8_t *dst, size_t n, Deadline deadline, std::vector<UniqueFd> &fds);
  UniqueFd fd_;
  Options options_;
};

/// Both ends of an in-process channel.
struct MemoryChannelPair {
  std::unique_ptr<Channel> host;
  std::unique_ptr<Channel> mediator;
};
/// `spinMicros`: how long a wait polls before it sleeps (as for sockets).
MemoryChannelPair makeMemoryChannelPair(uint64_t maxFrameBytes = 16u << 20,
                                        uint32_t spinMicros = 0);

} // namespace ivc::runtime

#endif
