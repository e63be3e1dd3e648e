//===- ChannelTest.cpp - Socket and in-memory channels ---------------------===//
#include "ivc/runtime/host/SandboxConfig.h"
#include "ivc/runtime/transport/Channel.h"

#include <gtest/gtest.h>

#include <dirent.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace ivc::runtime;

namespace {

struct Pair {
  std::unique_ptr<SocketChannel> host, worker;
  int rawWorker = -1; // for writing hostile bytes
};

Pair makePair(SocketChannel::Options hostOpts = {}, bool keepRaw = false) {
  auto fds = SocketChannel::socketPair();
  EXPECT_TRUE(fds.ok());
  Pair p;
  p.host = std::make_unique<SocketChannel>(std::move(fds->first), hostOpts);
  if (keepRaw) {
    p.rawWorker = fds->second.release();
  } else {
    SocketChannel::Options w;
    w.acceptFds = true;
    p.worker = std::make_unique<SocketChannel>(std::move(fds->second), w);
  }
  return p;
}

/// Times this thread gave up its CPU (slept) so far.
long sleepsSoFar() {
  struct rusage u;
  getrusage(RUSAGE_THREAD, &u);
  return u.ru_nvcsw;
}

Deadline inMicros(int us) {
  return Deadline::at(Deadline::Clock::now() + std::chrono::microseconds(us));
}

std::span<const uint8_t> bytes(const std::string &s) {
  return {reinterpret_cast<const uint8_t *>(s.data()), s.size()};
}

std::string header(uint32_t magic, uint32_t length) {
  std::string h(8, '\0');
  for (int i = 0; i < 4; ++i) {
    h[i] = static_cast<char>(magic >> (8 * i));
    h[4 + i] = static_cast<char>(length >> (8 * i));
  }
  return h;
}

int openFds() {
  int n = 0;
  DIR *d = opendir("/proc/self/fd");
  while (readdir(d))
    ++n;
  closedir(d);
  return n;
}

TEST(SocketChannel, FramesArriveWholeAndInOrder) {
  Pair p = makePair();
  for (std::string msg : {std::string(), std::string("a"), std::string(100000, 'x')})
    ASSERT_TRUE(p.worker->send(msg, Deadline::afterMs(5000)).ok());
  for (std::string msg : {std::string(), std::string("a"), std::string(100000, 'x')}) {
    Result<Frame> f = p.host->recv(Deadline::afterMs(5000));
    ASSERT_TRUE(f.ok()) << f.error().message;
    EXPECT_EQ(f->bytes, msg);
  }
}

TEST(SocketChannel, LargeFrameWithConcurrentReader) {
  SocketChannel::Options big;
  big.maxFrameBytes = 8u << 20;
  Pair p = makePair(big);
  std::string msg(6u << 20, 'q');
  msg[12345] = 'z';
  std::thread reader([&] {
    Result<Frame> f = p.host->recv(Deadline::afterMs(10000));
    ASSERT_TRUE(f.ok());
    EXPECT_EQ(f->bytes, msg);
  });
  EXPECT_TRUE(p.worker->send(msg, Deadline::afterMs(10000)).ok());
  reader.join();
}

TEST(SocketChannel, RecvHonoursTheDeadline) {
  Pair p = makePair();
  Result<Frame> f = p.host->recv(Deadline::afterMs(50));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Timeout);
  // A peer that stops mid-frame cannot hold the reader either.
  Pair q = makePair({}, /*keepRaw=*/true);
  std::string partial = header(FrameMagic, 100) + "abc";
  ASSERT_EQ(::write(q.rawWorker, partial.data(), partial.size()), (ssize_t)partial.size());
  f = q.host->recv(Deadline::afterMs(50));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Timeout);
  ::close(q.rawWorker);
}

TEST(SocketChannel, SpinningPollsInsteadOfSleeping) {
  SocketChannel::Options spin;
  spin.spinMicros = MaxChannelSpinMicros;
  Pair p = makePair(spin);
  // Within its spin time a wait never sleeps, and still keeps its deadline.
  long before = sleepsSoFar();
  Result<Frame> f = p.host->recv(inMicros(300));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Timeout);
  EXPECT_EQ(sleepsSoFar(), before);
  // Without it, the same wait sleeps in poll(2).
  Pair q = makePair();
  before = sleepsSoFar();
  EXPECT_EQ(q.host->recv(Deadline::afterMs(5)).error().kind, Error::Timeout);
  EXPECT_GT(sleepsSoFar(), before);
  // Frames that come after the spin, and a peer that closes, are seen as
  // without it.
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_TRUE(p.worker->send("late", Deadline::afterMs(1000)).ok());
    p.worker->close();
  });
  f = p.host->recv(Deadline::afterMs(5000));
  ASSERT_TRUE(f.ok()) << f.error().message;
  EXPECT_EQ(f->bytes, "late");
  late.join();
  EXPECT_EQ(p.host->recv(Deadline::afterMs(5000)).error().kind, Error::Closed);
}

TEST(SocketChannel, SendHonoursTheDeadline) {
  SocketChannel::Options big;
  big.maxFrameBytes = 64u << 20;
  Pair p = makePair(big);
  // Nobody reads: the socket buffer fills and send must give up.
  Status s = p.host->send(std::string(32u << 20, 'x'), Deadline::afterMs(100));
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, Error::Timeout);
}

TEST(SocketChannel, PeerClosing) {
  Pair p = makePair();
  p.worker->close();
  Result<Frame> f = p.host->recv(Deadline::afterMs(1000));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Closed);

  Pair q = makePair({}, true);
  std::string partial = header(FrameMagic, 100) + "abc";
  ASSERT_EQ(::write(q.rawWorker, partial.data(), partial.size()), (ssize_t)partial.size());
  ::close(q.rawWorker);
  f = q.host->recv(Deadline::afterMs(1000));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Closed);
  EXPECT_NE(f.error().message.find("mid-frame"), std::string::npos);
}

TEST(SocketChannel, HostileHeaders) {
  {
    Pair p = makePair({}, true);
    std::string bad = header(0xdeadbeef, 4) + "abcd";
    ASSERT_EQ(::write(p.rawWorker, bad.data(), bad.size()), (ssize_t)bad.size());
    Result<Frame> f = p.host->recv(Deadline::afterMs(1000));
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().kind, Error::Protocol);
    EXPECT_NE(f.error().message.find("magic"), std::string::npos);
    ::close(p.rawWorker);
  }
  {
    // 4 GiB claimed, nothing sent: refused from the header alone.
    Pair p = makePair({}, true);
    std::string huge = header(FrameMagic, 0xffffffffu);
    ASSERT_EQ(::write(p.rawWorker, huge.data(), huge.size()), (ssize_t)huge.size());
    Result<Frame> f = p.host->recv(Deadline::afterMs(1000));
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.error().kind, Error::Protocol);
    EXPECT_NE(f.error().message.find("exceeds the limit"), std::string::npos);
    ::close(p.rawWorker);
  }
}

TEST(SocketChannel, HostNeverAcceptsDescriptors) {
  Pair p = makePair({}, true);
  int before = openFds();
  // The worker passes three descriptors with a frame.
  int passed = ::open("/dev/null", O_RDONLY);
  std::string frame = header(FrameMagic, 1) + "x";
  struct iovec iov = {frame.data(), frame.size()};
  alignas(struct cmsghdr) char control[CMSG_SPACE(3 * sizeof(int))];
  struct msghdr msg = {};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = control;
  msg.msg_controllen = sizeof control;
  struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(3 * sizeof(int));
  int fds[3] = {passed, passed, passed};
  memcpy(CMSG_DATA(c), fds, sizeof fds);
  ASSERT_GT(::sendmsg(p.rawWorker, &msg, 0), 0);
  ::close(passed);
  Result<Frame> f = p.host->recv(Deadline::afterMs(1000));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Protocol);
  EXPECT_NE(f.error().message.find("file descriptors"), std::string::npos);
  EXPECT_EQ(openFds(), before) << "a descriptor from the peer leaked into the host";
  ::close(p.rawWorker);
}

TEST(SocketChannel, WorkerReceivesSegmentDescriptors) {
  Pair p = makePair();
  int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  ASSERT_TRUE(p.host->send(bytes("seg"), {&fd, 1}, Deadline::afterMs(1000)).ok());
  ::close(fd);
  Result<Frame> f = p.worker->recv(Deadline::afterMs(1000));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->bytes, "seg");
  ASSERT_EQ(f->fds.size(), 1u);
  EXPECT_TRUE(f->fds[0].valid());
  EXPECT_NE(::fcntl(f->fds[0].get(), F_GETFD) & FD_CLOEXEC, 0);
}

TEST(SocketChannel, IdlePeer) {
  Pair p = makePair();
  EXPECT_TRUE(p.host->peerIdleAndAlive());
  ASSERT_TRUE(p.worker->send("unsolicited", Deadline::afterMs(1000)).ok());
  EXPECT_FALSE(p.host->peerIdleAndAlive());
  Pair q = makePair();
  q.worker->close();
  EXPECT_FALSE(q.host->peerIdleAndAlive());
}

TEST(MemoryChannel, RoundTripTimeoutAndClose) {
  MemoryChannelPair p = makeMemoryChannelPair(1024);
  ASSERT_TRUE(p.host->send("ping", Deadline::never()).ok());
  Result<Frame> f = p.mediator->recv(Deadline::afterMs(1000));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->bytes, "ping");
  f = p.host->recv(Deadline::afterMs(20));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Timeout);
  EXPECT_EQ(p.host->send(std::string(2048, 'x'), Deadline::never()).error().kind, Error::Invalid);
  int fd = 0;
  EXPECT_FALSE(p.host->send(bytes("x"), {&fd, 1}, Deadline::never()).ok());
  std::thread t([&] {
    Result<Frame> g = p.mediator->recv(Deadline::never());
    EXPECT_FALSE(g.ok());
    EXPECT_EQ(g.error().kind, Error::Closed);
  });
  p.host->close();
  t.join();
}

TEST(MemoryChannel, SpinningWaitsForTheSenderToWait) {
  MemoryChannelPair p = makeMemoryChannelPair(1024, MaxChannelSpinMicros);
  long before = sleepsSoFar();
  Result<Frame> f = p.host->recv(inMicros(300));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.error().kind, Error::Timeout);
  EXPECT_EQ(sleepsSoFar(), before);
  // A sender that never waits costs the receiver its spin time, no more.
  ASSERT_TRUE(p.host->send("ping", Deadline::never()).ok());
  f = p.mediator->recv(Deadline::afterMs(5000));
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->bytes, "ping");
  // Turns taken many times over, as a mediator thread and the host do.
  std::thread mediator([&] {
    for (int i = 0; i < 200; ++i) {
      Result<Frame> g = p.mediator->recv(Deadline::afterMs(5000));
      ASSERT_TRUE(g.ok());
      ASSERT_TRUE(p.mediator->send(g->bytes + "!", Deadline::never()).ok());
    }
    p.mediator->close();
  });
  for (int i = 0; i < 200; ++i) {
    std::string msg = std::to_string(i);
    ASSERT_TRUE(p.host->send(msg, Deadline::never()).ok());
    Result<Frame> g = p.host->recv(Deadline::afterMs(5000));
    ASSERT_TRUE(g.ok());
    EXPECT_EQ(g->bytes, msg + "!");
  }
  mediator.join();
  EXPECT_EQ(p.host->recv(Deadline::afterMs(5000)).error().kind, Error::Closed);
}

} // namespace
