//===- Worker.cpp - Handshake, liveness and killing -----------------------===//
#include "ivc/runtime/host/Worker.h"

#include "ivc/runtime/codec/Codec.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>

namespace ivc::runtime {

using codec::Kind;
using codec::Value;

Result<Value> decodeFrame(const Frame &frame) {
  return codec::decode(
      {reinterpret_cast<const uint8_t *>(frame.bytes.data()), frame.bytes.size()});
}

Result<std::unique_ptr<Worker>> Worker::adopt(pid_t pid, UniqueFd pidfd, UniqueFd channel,
                                              const SandboxConfig &config, bool ourChild) {
  static std::atomic<uint64_t> next{1};
  std::unique_ptr<Worker> w(new Worker());
  w->id_ = next++;
  w->pid_ = pid;
  w->pidfd_ = std::move(pidfd);
  w->ourChild_ = ourChild;
  w->config_ = config;
  SocketChannel::Options co;
  co.maxFrameBytes = config.maxFrameBytes;
  co.acceptFds = false;
  co.spinMicros = config.channelSpinMicros;
  w->channel_ = std::make_unique<SocketChannel>(std::move(channel), co);
  ShmArena::Options ao;
  ao.downloadBytes = config.downloadBytes;
  ao.uploadBytes = config.uploadBytes;
  ao.maxBytes = config.arenaMaxBytes;
  Result<std::unique_ptr<ShmArena>> arena = ShmArena::create(ao);
  if (!arena)
    return arena.takeError(); // ~Worker kills the process
  w->arena_ = std::move(*arena);
  if (config.cudaTransport()) {
    Result<std::shared_ptr<CudaHostArena>> cuda =
        CudaHostArena::create(static_cast<int>(config.cudaDevice), config.downloadBytes,
                              config.uploadBytes);
    if (!cuda)
      return Error(cuda.error().kind, "cuda-ipc transport: " + cuda.error().message);
    w->cudaArena_ = std::move(*cuda);
  }
  return w;
}

Status Worker::handshake(Deadline deadline) {
  std::vector<Value> segments;
  std::vector<int> fds;
  for (const Announcement &a : arena_->takeAnnouncements()) {
    segments.push_back(Value::tuple({Value::integer(a.space),
                                     Value::integer(static_cast<int64_t>(a.size)),
                                     Value::str(a.role == Announcement::Upload ? "upload"
                                                                               : "download")}));
    fds.push_back(a.fd);
  }
  std::vector<Value> job = {Value::str("init"), config_.toValue(),
                            Value::list(std::move(segments))};
  if (cudaArena_)
    job.push_back(cudaArena_->announcement().toValue());
  std::string init = codec::encode(Value::tuple(std::move(job)));
  if (Status s = channel_->send({reinterpret_cast<const uint8_t *>(init.data()), init.size()},
                                fds, deadline);
      !s)
    return Error(s.error().kind, "sending the job to the worker: " + s.error().message);
  Result<Frame> frame = channel_->recv(deadline);
  if (!frame)
    return Error(frame.error().kind,
                 "waiting for the worker to start: " + frame.error().message);
  Result<Value> reply = decodeFrame(*frame);
  if (!reply)
    return Error::protocol("worker start reply: " + reply.error().message);
  const Value &r = *reply;
  if (r.is(Kind::Tuple) && r.items().size() == 2 && r.items()[0] == Value::str("error") &&
      r.items()[1].is(Kind::Str))
    return Error::protocol("worker failed to start: " + r.items()[1].asString());
  if (!r.is(Kind::Tuple) || r.items().size() != 2 || !(r.items()[0] == Value::str("ready")) ||
      !r.items()[1].is(Kind::Dict))
    return Error::protocol("worker start reply is not ('ready', {...})");
  const Value *pid = r.items()[1].get("pid");
  const Value *facts = r.items()[1].get("facts");
  if (!pid || !pid->is(Kind::Int) || pid->asInt() != pid_ || !facts || !facts->is(Kind::Dict))
    return Error::protocol("worker ready message has a wrong pid or no facts");
  facts_ = *facts;
  return Status::success();
}

bool Worker::exited() const {
  if (!pidfd_.valid())
    return true;
  struct pollfd p = {pidfd_.get(), POLLIN, 0};
  return ::poll(&p, 1, 0) != 0;
}

bool Worker::idleAndAlive() const { return !killed_ && !exited() && channel_->peerIdleAndAlive(); }

void Worker::kill() {
  if (killed_ || !pidfd_.valid())
    return;
  killed_ = true;
  // The leader first, through its pidfd (no pid reuse race); then the group,
  // but only while the leader has not exited: its pid (the group id) cannot
  // be reused before it is reaped, and a locked-down worker cannot have
  // started other processes.
  bool leaderGone = exited();
  ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0);
  if (!leaderGone)
    ::killpg(pid_, SIGKILL);
}

void Worker::pause() {
  if (!killed_ && pidfd_.valid())
    ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGSTOP, nullptr, 0);
}

void Worker::resume() {
  if (!killed_ && pidfd_.valid())
    ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGCONT, nullptr, 0);
}

Worker::~Worker() {
  if (channel_)
    channel_->close();
  kill();
  if (ourChild_ && pid_ > 0) {
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
  } else if (cudaArena_ && pidfd_.valid()) {
    // The device arena is freed after this body: wait (boundedly) until
    // the killed worker has exited and so no longer maps it.
    struct pollfd p = {pidfd_.get(), POLLIN, 0};
    while (::poll(&p, 1, 5000) < 0 && errno == EINTR) {
    }
  }
}

} // namespace ivc::runtime
