//===- Segment.h - One shared-memory region (memfd) -----------------------===//
//
// The host creates segments: memfd_create, ftruncate, then seals against
// shrinking and growing, and seals the seals. A worker that maps a segment
// therefore cannot make the host's mapping fault (SIGBUS) by truncating the
// file, nor add a write seal behind the host's back. Both sides map it
// shared and read/write; the host never trusts what the worker wrote without
// bounds-checking the descriptor that points at it.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_SEGMENT_H
#define IVC_RUNTIME_TRANSPORT_SEGMENT_H

#include "ivc/runtime/support/Result.h"
#include "ivc/runtime/transport/Fd.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <span>

namespace ivc::runtime {

class Segment {
public:
  ~Segment();
  Segment(const Segment &) = delete;
  Segment &operator=(const Segment &) = delete;

  /// Host side: a new sealed segment of `size` bytes (size > 0).
  static Result<std::shared_ptr<Segment>> create(uint64_t size);
  /// Worker side: maps a segment whose descriptor came from the host. Checks
  /// that the size matches and the shrink seal is in place.
  static Result<std::shared_ptr<Segment>> adopt(UniqueFd fd, uint64_t size);

  int fd() const { return fd_.get(); }
  uint64_t size() const { return size_; }
  uint8_t *data() const { return base_; }

  /// The bytes [offset, offset + length), or nothing when the range is not
  /// inside the segment (overflow-safe).
  std::optional<std::span<uint8_t>> range(uint64_t offset, uint64_t length) const;

  /// Gives the segment's pages back to the kernel (contents become zero).
  void discard();

private:
  Segment(UniqueFd fd, uint64_t size, uint8_t *base) : fd_(std::move(fd)), size_(size), base_(base) {}
  UniqueFd fd_;
  uint64_t size_;
  uint8_t *base_;
};

} // namespace ivc::runtime

#endif
