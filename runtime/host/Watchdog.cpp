//===- Watchdog.cpp -------------------------------------------------------===//
#include "ivc/runtime/host/Watchdog.h"

#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace ivc::runtime {

Watchdog::Watchdog() : thread_([this] { loop(); }) {}

Watchdog::~Watchdog() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

uint64_t Watchdog::arm(int pidfd, pid_t pgid, Deadline deadline) {
  UniqueFd dup(::fcntl(pidfd, F_DUPFD_CLOEXEC, 0));
  std::lock_guard<std::mutex> lock(mu_);
  uint64_t ticket = next_++;
  // The host arms the watchdog for each wait on a worker; the thread is only
  // woken when the new deadline comes before the one it sleeps until.
  if (deadline.time() < wakeAt_)
    cv_.notify_all();
  entries_.emplace(ticket, Entry{deadline, std::move(dup), pgid});
  return ticket;
}

bool Watchdog::disarm(uint64_t ticket) {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.erase(ticket) > 0;
}

uint64_t Watchdog::fired() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fired_;
}

void Watchdog::loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    auto earliest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
      if (earliest == entries_.end() || it->second.deadline.time() < earliest->second.deadline.time())
        earliest = it;
    if (earliest == entries_.end()) {
      wakeAt_ = Deadline::Clock::time_point::max();
      cv_.wait(lock);
      continue;
    }
    if (!earliest->second.deadline.expired()) {
      wakeAt_ = earliest->second.deadline.time();
      cv_.wait_until(lock, wakeAt_);
      continue;
    }
    Entry e = std::move(earliest->second);
    entries_.erase(earliest);
    ++fired_;
    if (e.pidfd.valid()) {
      struct pollfd p = {e.pidfd.get(), POLLIN, 0};
      bool exited = ::poll(&p, 1, 0) != 0;
      ::syscall(SYS_pidfd_send_signal, e.pidfd.get(), SIGKILL, nullptr, 0);
      if (!exited && e.pgid > 0)
        ::killpg(e.pgid, SIGKILL);
    }
  }
}

} // namespace ivc::runtime
