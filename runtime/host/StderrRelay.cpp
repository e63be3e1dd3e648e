//===- StderrRelay.cpp ----------------------------------------------------===//
#include "ivc/runtime/host/StderrRelay.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <poll.h>
#include <string>

namespace ivc::runtime {

namespace {

bool writeAll(int fd, const char *data, size_t n) {
  while (n > 0) {
    ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return false;
    data += w;
    n -= size_t(w);
  }
  return true;
}

Result<std::pair<UniqueFd, UniqueFd>> makePipe(int flags) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | flags) != 0)
    return Error::fromErrno("pipe2");
  return std::make_pair(UniqueFd(fds[0]), UniqueFd(fds[1]));
}

} // namespace

Result<std::unique_ptr<StderrRelay>> StderrRelay::start(int sinkFd, Limits limits) {
  UniqueFd sink(::fcntl(sinkFd >= 0 ? sinkFd : 2, F_DUPFD_CLOEXEC, 3));
  if (!sink.valid())
    return Error::fromErrno("dup of the workers' stderr sink");
  Result<std::pair<UniqueFd, UniqueFd>> data = makePipe(0), stop = makePipe(O_NONBLOCK);
  if (!data)
    return data.takeError();
  if (!stop)
    return stop.takeError();
  // Only the read end is non-blocking: a worker's writes wait for room.
  ::fcntl(data->first.get(), F_SETFL, O_NONBLOCK);
  return std::unique_ptr<StderrRelay>(
      new StderrRelay(std::move(sink), std::move(data->first), std::move(data->second),
                      std::move(stop->first), std::move(stop->second), limits));
}

StderrRelay::StderrRelay(UniqueFd sink, UniqueFd readEnd, UniqueFd writeEnd, UniqueFd stopRead,
                         UniqueFd stopWrite, Limits limits)
    : sink_(std::move(sink)), readEnd_(std::move(readEnd)), writeEnd_(std::move(writeEnd)),
      stopRead_(std::move(stopRead)), stopWrite_(std::move(stopWrite)), limits_(limits),
      thread_([this] { loop(); }) {}

StderrRelay::~StderrRelay() {
  char byte = 0;
  (void)!::write(stopWrite_.get(), &byte, 1);
  thread_.join();
}

void StderrRelay::loop() {
  using Clock = std::chrono::steady_clock;
  double tokens = double(limits_.burstBytes);
  Clock::time_point last = Clock::now(), reported = last - std::chrono::seconds(1);
  uint64_t unreported = 0;
  // The worker's line being written, marked and escaped: held until its
  // '\n', so that nothing of the host's lands inside it and its rest is
  // never written unmarked after a line of the host's. One that is long or
  // slow to end is cut (HeldLineBytes, HeldLineMs) and goes on marked anew.
  std::string line;
  auto cut = [&]() {
    if (line.empty())
      return;
    line += '\n';
    writeAll(sink_.get(), line.data(), line.size());
    line.clear();
  };
  // At most one line of ivc's own a second, counting what was dropped since.
  auto report = [&](bool now) {
    if (unreported == 0 || (!now && Clock::now() - reported < std::chrono::seconds(1)))
      return;
    std::string notice = "ivc: dropped " + std::to_string(unreported) +
                         " bytes of worker stderr (over " +
                         std::to_string(limits_.bytesPerSecond) + " bytes a second)\n";
    writeAll(sink_.get(), notice.data(), notice.size());
    unreported = 0;
    reported = Clock::now();
  };
  // Every line a worker writes is marked as a worker's: one that reads
  // like ivc's own (`ivc: ...`) is not, and control bytes that would move
  // a terminal's cursor over the mark (`\x1b[2K\r`) are written escaped.
  std::string out;
  auto pass = [&](const char *data, size_t n) {
    out.clear();
    for (size_t i = 0; i < n; ++i) {
      if (line.empty())
        line += WorkerPrefix;
      unsigned char c = static_cast<unsigned char>(data[i]);
      if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
        static constexpr char Hex[] = "0123456789abcdef";
        line += {'\\', 'x', Hex[c >> 4], Hex[c & 15]};
      } else {
        line += char(c);
      }
      if (c == '\n') {
        out += line;
        line.clear();
      }
    }
    writeAll(sink_.get(), out.data(), out.size());
    if (line.size() > HeldLineBytes)
      cut();
  };
  char buf[64 << 10];
  for (;;) {
    struct pollfd fds[2] = {{readEnd_.get(), POLLIN, 0}, {stopRead_.get(), POLLIN, 0}};
    // While a line is held, wake to cut it; while something is unreported,
    // within a second to say so.
    int ready = ::poll(fds, 2, !line.empty() ? HeldLineMs : unreported ? 1000 : -1);
    if (ready < 0 && errno != EINTR)
      return;
    Clock::time_point now = Clock::now();
    tokens = std::min(double(limits_.burstBytes),
                      tokens + std::chrono::duration<double>(now - last).count() *
                                   double(limits_.bytesPerSecond));
    last = now;
    if (ready == 0) {
      cut();
      report(false);
      continue;
    }
    if (fds[0].revents & (POLLIN | POLLHUP)) {
      ssize_t n = ::read(readEnd_.get(), buf, sizeof buf);
      if (n > 0) {
        size_t passed = std::min(size_t(n), size_t(tokens));
        tokens -= double(passed);
        report(false);
        if (passed > 0)
          pass(buf, passed);
        unreported += size_t(n) - passed;
        droppedTotal_ += size_t(n) - passed;
      }
    }
    if (fds[1].revents & POLLIN) {
      cut();
      report(true);
      return;
    }
  }
}

} // namespace ivc::runtime
