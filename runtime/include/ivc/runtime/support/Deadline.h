//===- Deadline.h - Absolute points in time that host waits respect ------===//
//
// Every host-side wait on a worker takes a Deadline, never a relative
// timeout, so a sequence of waits (read header, read body, ...) cannot add up
// to more than the budget the caller gave.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_SUPPORT_DEADLINE_H
#define IVC_RUNTIME_SUPPORT_DEADLINE_H

#include <chrono>
#include <cstdint>
#include <limits>

namespace ivc::runtime {

class Deadline {
public:
  using Clock = std::chrono::steady_clock;

  static Deadline never() { return Deadline(Clock::time_point::max()); }
  static Deadline at(Clock::time_point t) { return Deadline(t); }
  static Deadline afterMs(int64_t ms) {
    if (ms < 0)
      return never();
    return Deadline(Clock::now() + std::chrono::milliseconds(ms));
  }

  bool isNever() const { return at_ == Clock::time_point::max(); }
  bool expired() const { return !isNever() && Clock::now() >= at_; }
  Clock::time_point time() const { return at_; }

  /// Milliseconds left, rounded up, for poll(2): -1 for never, 0 when expired.
  int pollTimeoutMs() const {
    if (isNever())
      return -1;
    auto left = at_ - Clock::now();
    if (left <= Clock::duration::zero())
      return 0;
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(left).count() + 1;
    return ms > std::numeric_limits<int>::max() ? std::numeric_limits<int>::max()
                                                : static_cast<int>(ms);
  }

  /// The earlier of two deadlines.
  Deadline min(Deadline other) const { return at_ <= other.at_ ? *this : other; }

private:
  explicit Deadline(Clock::time_point t) : at_(t) {}
  Clock::time_point at_;
};

} // namespace ivc::runtime

#endif
