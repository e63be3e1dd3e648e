//===- SocketChannel.cpp - Length-prefixed frames over a socketpair -------===//
//
// The socket is non-blocking; every wait is a poll(2) bounded by the
// caller's deadline, so a worker that stops mid-frame cannot hold the host.
// A frame's body is read in chunks as it arrives: a length the peer claims
// (up to the limit) costs memory only once the bytes are really there.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/transport/Channel.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

namespace ivc::runtime {

namespace {

/// One poll(2): nothing when the descriptor is not ready yet (or a signal
/// came), else the outcome of the wait.
std::optional<Status> pollOnce(int fd, short events, int timeoutMs) {
  struct pollfd p = {fd, events, 0};
  int n = ::poll(&p, 1, timeoutMs);
  if (n < 0)
    return errno == EINTR ? std::nullopt : std::optional<Status>(Error::fromErrno("poll"));
  if (n == 0)
    return std::nullopt;
  if (p.revents & POLLNVAL)
    return Error::closed("channel descriptor is closed");
  // POLLHUP/POLLERR with POLLIN still lets us drain what was sent.
  if (p.revents & (events | POLLHUP | POLLERR))
    return Status::success();
  return std::nullopt;
}

/// Polls without sleeping for up to `spinMicros` (within the deadline),
/// then sleeps in poll(2) until the descriptor is ready or the deadline.
Status waitFor(int fd, short events, Deadline deadline, uint32_t spinMicros = 0) {
  if (spinMicros) {
    auto until = std::min(Deadline::Clock::now() + std::chrono::microseconds(spinMicros),
                          deadline.time());
    do {
      if (std::optional<Status> s = pollOnce(fd, events, 0))
        return std::move(*s);
    } while (Deadline::Clock::now() < until);
  }
  for (;;) {
    if (std::optional<Status> s = pollOnce(fd, events, deadline.pollTimeoutMs()))
      return std::move(*s);
    if (deadline.expired())
      return Error::timeout("deadline passed waiting on the channel");
  }
}

void putU32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    p[i] = static_cast<uint8_t>(v >> (8 * i));
}
uint32_t getU32(const uint8_t *p) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<uint32_t>(p[i]) << (8 * i);
  return v;
}

} // namespace

SocketChannel::SocketChannel(UniqueFd fd, Options options)
    : fd_(std::move(fd)), options_(options) {
  int flags = ::fcntl(fd_.get(), F_GETFL);
  if (flags >= 0)
    ::fcntl(fd_.get(), F_SETFL, flags | O_NONBLOCK);
}

Result<std::pair<UniqueFd, UniqueFd>> SocketChannel::socketPair() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return Error::fromErrno("socketpair");
  return std::make_pair(UniqueFd(fds[0]), UniqueFd(fds[1]));
}

Status SocketChannel::send(std::span<const uint8_t> bytes, std::span<const int> fds,
                           Deadline deadline) {
  if (!fd_.valid())
    return Error::closed("channel is closed");
  if (bytes.size() > options_.maxFrameBytes || bytes.size() > UINT32_MAX)
    return Error::invalid("frame of " + std::to_string(bytes.size()) + " bytes exceeds the limit");
  if (fds.size() > MaxFdsPerFrame)
    return Error::invalid("too many descriptors for one frame");
  uint8_t header[FrameHeaderBytes];
  putU32(header, FrameMagic);
  putU32(header + 4, static_cast<uint32_t>(bytes.size()));

  size_t total = FrameHeaderBytes + bytes.size(), sent = 0;
  bool fdsSent = fds.empty();
  while (sent < total) {
    struct iovec iov[2];
    int niov = 0;
    if (sent < FrameHeaderBytes) {
      iov[niov++] = {header + sent, FrameHeaderBytes - sent};
      if (!bytes.empty())
        iov[niov++] = {const_cast<uint8_t *>(bytes.data()), bytes.size()};
    } else {
      size_t off = sent - FrameHeaderBytes;
      iov[niov++] = {const_cast<uint8_t *>(bytes.data()) + off, bytes.size() - off};
    }
    struct msghdr msg = {};
    msg.msg_iov = iov;
    msg.msg_iovlen = niov;
    alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int) * MaxFdsPerFrame)];
    if (!fdsSent) {
      // Descriptors ride with the first byte of the frame.
      msg.msg_control = control;
      msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
    }
    ssize_t n = ::sendmsg(fd_.get(), &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        if (Status s = waitFor(fd_.get(), POLLOUT, deadline); !s)
          return s;
        continue;
      }
      if (errno == EPIPE || errno == ECONNRESET)
        return Error::closed("peer closed the channel");
      return Error::fromErrno("sendmsg");
    }
    fdsSent = true;
    sent += static_cast<size_t>(n);
  }
  return Status::success();
}

Status SocketChannel::readFully(uint8_t *dst, size_t n, Deadline deadline,
                                std::vector<UniqueFd> &fds) {
  size_t got = 0;
  while (got < n) {
    struct iovec iov = {dst + got, n - got};
    struct msghdr msg = {};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    alignas(struct cmsghdr) char control[CMSG_SPACE(sizeof(int) * MaxFdsPerFrame)];
    if (options_.acceptFds) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
    }
    ssize_t r = ::recvmsg(fd_.get(), &msg, MSG_CMSG_CLOEXEC);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        if (Status s = waitFor(fd_.get(), POLLIN, deadline, options_.spinMicros); !s)
          return s;
        continue;
      }
      if (errno == ECONNRESET)
        return Error::closed("peer reset the channel");
      return Error::fromErrno("recvmsg");
    }
    if (r == 0)
      return Error::closed(got == 0 && fds.empty() ? "peer closed the channel"
                                                    : "peer closed the channel mid-frame");
    if (options_.acceptFds) {
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
          continue;
        size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; ++i) {
          int fd;
          std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
          fds.emplace_back(fd);
        }
      }
      if (msg.msg_flags & MSG_CTRUNC)
        return Error::protocol("more descriptors than a frame may carry");
    } else if (msg.msg_flags & MSG_CTRUNC) {
      // The kernel already closed what the peer tried to pass.
      return Error::protocol("peer sent file descriptors, which this side never accepts");
    }
    got += static_cast<size_t>(r);
  }
  return Status::success();
}

Result<Frame> SocketChannel::recv(Deadline deadline) {
  if (!fd_.valid())
    return Error::closed("channel is closed");
  Frame frame;
  uint8_t header[FrameHeaderBytes];
  if (Status s = readFully(header, FrameHeaderBytes, deadline, frame.fds); !s)
    return s.error();
  if (getU32(header) != FrameMagic)
    return Error::protocol("frame header has the wrong magic");
  uint64_t length = getU32(header + 4);
  if (length > options_.maxFrameBytes)
    return Error::protocol("frame of " + std::to_string(length) + " bytes exceeds the limit of " +
                           std::to_string(options_.maxFrameBytes));
  constexpr size_t Chunk = 1u << 20;
  while (frame.bytes.size() < length) {
    size_t start = frame.bytes.size();
    size_t step = std::min<uint64_t>(Chunk, length - start);
    frame.bytes.resize(start + step);
    if (Status s = readFully(reinterpret_cast<uint8_t *>(frame.bytes.data()) + start, step,
                             deadline, frame.fds);
        !s)
      return s.error();
  }
  if (frame.fds.size() > MaxFdsPerFrame)
    return Error::protocol("more descriptors than a frame may carry");
  return frame;
}

bool SocketChannel::peerIdleAndAlive() const {
  if (!fd_.valid())
    return false;
  struct pollfd p = {fd_.get(), POLLIN | POLLRDHUP, 0};
  int n = ::poll(&p, 1, 0);
  return n == 0;
}

} // namespace ivc::runtime
