//===- Zygote.cpp - Forking workers from a warm interpreter ---------------===//
#include "ivc/runtime/host/Zygote.h"

#include "ivc/runtime/codec/Codec.h"

#include <cerrno>
#include <csignal>
#include <poll.h>
#include <sys/syscall.h>
#include <sys/wait.h>

namespace ivc::runtime {

using codec::Kind;
using codec::Value;

namespace {

Status sendValue(SocketChannel &ch, const Value &v, std::span<const int> fds, Deadline d) {
  std::string bytes = codec::encode(v);
  return ch.send({reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size()}, fds, d);
}

// Expects (tag, {"pid": int}).
Result<pid_t> expectPid(const Frame &frame, const char *tag) {
  Result<Value> v = decodeFrame(frame);
  if (!v)
    return Error::protocol(std::string("zygote reply: ") + v.error().message);
  if (v->is(Kind::Tuple) && v->items().size() == 2 && v->items()[0] == Value::str("error") &&
      v->items()[1].is(Kind::Str))
    return Error::protocol("zygote failed: " + v->items()[1].asString());
  if (!v->is(Kind::Tuple) || v->items().size() != 2 || !(v->items()[0] == Value::str(tag)) ||
      !v->items()[1].is(Kind::Dict))
    return Error::protocol(std::string("zygote reply is not '") + tag + "'");
  const Value *pid = v->items()[1].get("pid");
  if (!pid || !pid->is(Kind::Int) || pid->asInt() <= 0)
    return Error::protocol("zygote reply has no pid");
  return static_cast<pid_t>(pid->asInt());
}

} // namespace

Result<std::unique_ptr<Zygote>> Zygote::start(const WorkerOptions &options,
                                              const SandboxConfig &config) {
  Deadline deadline = Deadline::afterMs(static_cast<int64_t>(config.startTimeoutMs));
  Result<std::pair<UniqueFd, UniqueFd>> pair = SocketChannel::socketPair();
  if (!pair)
    return pair.takeError();
  std::vector<std::string> argv = workerArgv(options, false);
  argv.insert(argv.end(), {"--zygote", "--channel-fd", "3"});
  Result<pid_t> pid = spawnProcess(argv, pair->second.get(), options.stderrFd);
  if (!pid)
    return pid.takeError();
  pair->second.reset();
  std::unique_ptr<Zygote> z(new Zygote());
  z->pid_ = *pid;
  Result<UniqueFd> pidfd = openPidfd(*pid);
  if (!pidfd) {
    ::kill(*pid, SIGKILL);
    ::waitpid(*pid, nullptr, 0);
    z->pid_ = -1;
    return pidfd.takeError();
  }
  z->pidfd_ = std::move(*pidfd);
  SocketChannel::Options co;
  co.acceptFds = true; // pidfds of its children; the zygote runs no user code
  z->channel_ = std::make_unique<SocketChannel>(std::move(pair->first), co);

  std::vector<Value> preload;
  for (const std::string &m : config.preload)
    preload.push_back(Value::str(m));
  Value init = Value::dict();
  init.set("preload", Value::list(std::move(preload)));
  if (Status s = sendValue(*z->channel_, Value::tuple({Value::str("zygote-init"), init}), {},
                           deadline);
      !s)
    return s.error();
  Result<Frame> frame = z->channel_->recv(deadline);
  if (!frame)
    return Error(frame.error().kind, "waiting for the zygote: " + frame.error().message);
  Result<pid_t> ready = expectPid(*frame, "zygote-ready");
  if (!ready)
    return ready.takeError();
  if (*ready != z->pid_)
    return Error::protocol("zygote reported a wrong pid");
  return z;
}

Result<std::unique_ptr<Worker>> Zygote::fork(const SandboxConfig &config) {
  Deadline deadline = Deadline::afterMs(static_cast<int64_t>(config.startTimeoutMs));
  Result<std::pair<UniqueFd, UniqueFd>> pair = SocketChannel::socketPair();
  if (!pair)
    return pair.takeError();
  int childEnd = pair->second.get();
  if (Status s = sendValue(*channel_, Value::tuple({Value::str("fork")}), {&childEnd, 1},
                           deadline);
      !s)
    return s.error();
  pair->second.reset();
  Result<Frame> frame = channel_->recv(deadline);
  if (!frame)
    return Error(frame.error().kind, "waiting for the zygote to fork: " + frame.error().message);
  Result<pid_t> pid = expectPid(*frame, "forked");
  if (!pid)
    return pid.takeError();
  if (frame->fds.size() != 1)
    return Error::protocol("zygote did not pass the child's pidfd");
  Result<std::unique_ptr<Worker>> worker =
      Worker::adopt(*pid, std::move(frame->fds[0]), std::move(pair->first), config,
                    /*ourChild=*/false);
  if (!worker)
    return worker;
  if (Status s = (*worker)->handshake(deadline); !s)
    return s.error();
  return worker;
}

bool Zygote::alive() const {
  if (!pidfd_.valid() || !channel_)
    return false;
  struct pollfd p = {pidfd_.get(), POLLIN, 0};
  return ::poll(&p, 1, 0) == 0 && channel_->peerIdleAndAlive();
}

Zygote::~Zygote() {
  if (channel_)
    channel_->close();
  if (pidfd_.valid())
    ::syscall(SYS_pidfd_send_signal, pidfd_.get(), SIGKILL, nullptr, 0);
  if (pid_ > 0)
    while (::waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
}

} // namespace ivc::runtime
