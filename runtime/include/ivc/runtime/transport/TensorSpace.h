//===- TensorSpace.h - Where tensor bytes travel, per transport -----------===//
//
// Messages carry tensor *descriptors* (codec::TensorDesc); a TensorSpace says
// where the bytes they point at live. The shared-memory arena below is the
// CPU implementation; CudaHostArena (CudaArena.h, the cuda-ipc transport)
// is the device one: it allocates and resolves device ranges and announces
// IPC handles instead of memfds. See docs/runtime.md, "Transports".
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_TENSORSPACE_H
#define IVC_RUNTIME_TRANSPORT_TENSORSPACE_H

#include "ivc/runtime/support/Result.h"
#include "ivc/runtime/transport/Segment.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ivc::runtime {

/// Space ids at or above this are not memory regions: the in-process
/// transport uses them for handles to live tensors.
constexpr uint32_t InProcessSpace = 0xffffffffu;

struct Placement {
  uint32_t space;
  uint64_t offset;
};

/// A region the peer must map before it reads a message that points into it.
struct Announcement {
  uint32_t space;
  uint64_t size;
  enum Role { Download, Upload } role;
  int fd; // borrowed from the TensorSpace; send it, do not close it
};

class TensorSpace {
public:
  virtual ~TensorSpace() = default;
  /// "shared-memory" or "cuda-ipc".
  virtual const char *kind() const = 0;
};

/// Host side of the CPU transport: memfd segments shared with one worker.
///  - download segments hold what the host delivers (bump-allocated, kept
///    for the whole job, since the worker may hold views of them);
///  - one upload segment holds what the worker sends back in its current
///    message (the host copies out before it replies, so it is reused).
class ShmArena final : public TensorSpace {
public:
  struct Options {
    uint64_t downloadBytes = 64u << 20;
    uint64_t uploadBytes = 16u << 20;
    /// Upper bound on all segments together; a worker asking for more upload
    /// space than this is refused.
    uint64_t maxBytes = 8ull << 30;
    /// Both parts at least a byte, and room for them together under maxBytes.
    bool consistent() const {
      return downloadBytes != 0 && uploadBytes != 0 && downloadBytes <= maxBytes &&
             uploadBytes <= maxBytes - downloadBytes;
    }
  };
  static constexpr uint64_t Alignment = 64;

  static Result<std::unique_ptr<ShmArena>> create(Options options);
  const char *kind() const override { return "shared-memory"; }

  /// Room for `nbytes` in download space; may create a segment, which is
  /// then returned by takeAnnouncements() until sent.
  Result<Placement> allocateDownload(uint64_t nbytes);
  /// Replaces the upload segment with one of at least `nbytes`.
  Status growUpload(uint64_t nbytes);
  /// Segments created since the last call, for the next host message.
  std::vector<Announcement> takeAnnouncements();
  bool hasAnnouncements() const { return !pending_.empty(); }
  /// Bytes a descriptor points at, if they lie inside a known segment.
  std::optional<std::span<uint8_t>> resolve(uint32_t space, uint64_t offset,
                                            uint64_t nbytes) const;
  std::shared_ptr<Segment> segment(uint32_t space) const;

  /// At the end of a job: rewind download allocation and drop the extra
  /// segments; returns the spaces the worker should forget.
  std::vector<uint32_t> resetForNextJob();

  uint32_t uploadSpace() const { return upload_; }
  uint64_t totalBytes() const;

private:
  explicit ShmArena(Options options) : options_(options) {}
  Result<uint32_t> addSegment(uint64_t size, Announcement::Role role);

  Options options_;
  std::map<uint32_t, std::shared_ptr<Segment>> segments_;
  std::vector<uint32_t> download_; // in allocation order; [0] is permanent
  size_t current_ = 0;             // index into download_
  uint64_t cursor_ = 0;            // next free byte in download_[current_]
  uint32_t upload_ = 0;
  uint32_t nextSpace_ = 1;
  std::vector<Announcement> pending_;
};

} // namespace ivc::runtime

#endif
