//===- Watchdog.h - Kill a worker's process group at its deadline ---------===//
//
// Host waits on a worker already stop at their deadline; the watchdog is the
// second line: a thread that SIGKILLs the worker's process group when the
// deadline passes, whatever the host thread is doing at that moment (stuck
// somewhere unexpected, say). The host arms it for each wait on a worker.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_WATCHDOG_H
#define IVC_RUNTIME_HOST_WATCHDOG_H

#include "ivc/runtime/support/Deadline.h"
#include "ivc/runtime/transport/Fd.h"

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <sys/types.h>
#include <thread>

namespace ivc::runtime {

class Watchdog {
public:
  Watchdog();
  ~Watchdog();
  Watchdog(const Watchdog &) = delete;
  Watchdog &operator=(const Watchdog &) = delete;

  /// Kills (pidfd's process, process group `pgid`) at `deadline` unless
  /// disarmed first. The pidfd is duplicated. Returns a ticket.
  uint64_t arm(int pidfd, pid_t pgid, Deadline deadline);
  /// True when the ticket was still armed (the watchdog had not fired).
  bool disarm(uint64_t ticket);
  /// Tickets that fired so far (for tests and stats).
  uint64_t fired() const;

private:
  struct Entry {
    Deadline deadline;
    UniqueFd pidfd;
    pid_t pgid;
  };
  void loop();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<uint64_t, Entry> entries_;
  uint64_t next_ = 1;
  uint64_t fired_ = 0;
  Deadline::Clock::time_point wakeAt_ = Deadline::Clock::time_point::max();
  bool stop_ = false;
  std::thread thread_;
};

} // namespace ivc::runtime

#endif
