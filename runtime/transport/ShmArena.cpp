//===- ShmArena.cpp - Download/upload segments shared with one worker -----===//
#include "ivc/runtime/transport/TensorSpace.h"

namespace ivc::runtime {

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
} // namespace

Result<std::unique_ptr<ShmArena>> ShmArena::create(Options options) {
  if (!options.consistent())
    return Error::invalid("arena sizes are inconsistent");
  std::unique_ptr<ShmArena> arena(new ShmArena(options));
  Result<uint32_t> down = arena->addSegment(options.downloadBytes, Announcement::Download);
  if (!down)
    return down.takeError();
  arena->download_.push_back(*down);
  Result<uint32_t> up = arena->addSegment(options.uploadBytes, Announcement::Upload);
  if (!up)
    return up.takeError();
  arena->upload_ = *up;
  return arena;
}

Result<uint32_t> ShmArena::addSegment(uint64_t size, Announcement::Role role) {
  size = alignUp(size, 4096);
  if (size > options_.maxBytes || totalBytes() > options_.maxBytes - size)
    return Error::invalid("shared-memory arena would exceed " +
                          std::to_string(options_.maxBytes) + " bytes");
  Result<std::shared_ptr<Segment>> seg = Segment::create(size);
  if (!seg)
    return seg.takeError();
  uint32_t space = nextSpace_++;
  segments_[space] = *seg;
  pending_.push_back({space, size, role, (*seg)->fd()});
  return space;
}

uint64_t ShmArena::totalBytes() const {
  uint64_t total = 0;
  for (const auto &[space, seg] : segments_)
    total += seg->size();
  return total;
}

Result<Placement> ShmArena::allocateDownload(uint64_t nbytes) {
  uint64_t need = alignUp(nbytes == 0 ? 1 : nbytes, Alignment);
  while (current_ < download_.size()) {
    uint64_t size = segments_.at(download_[current_])->size();
    if (cursor_ <= size && need <= size - cursor_) {
      Placement p{download_[current_], cursor_};
      cursor_ += need;
      return p;
    }
    ++current_;
    cursor_ = 0;
  }
  // Grow geometrically so a job with many deliveries makes few segments.
  uint64_t size = std::max(need, segments_.at(download_.back())->size());
  Result<uint32_t> space = addSegment(size, Announcement::Download);
  if (!space)
    return space.takeError();
  download_.push_back(*space);
  current_ = download_.size() - 1;
  cursor_ = need;
  return Placement{*space, 0};
}

Status ShmArena::growUpload(uint64_t nbytes) {
  uint64_t old = segments_.at(upload_)->size();
  uint64_t size = std::max(nbytes, 2 * old);
  // Drop the old upload segment first so the limit counts the new one only.
  std::shared_ptr<Segment> keep = segments_.at(upload_);
  segments_.erase(upload_);
  Result<uint32_t> space = addSegment(size, Announcement::Upload);
  if (!space) {
    segments_[upload_] = keep;
    return space.takeError();
  }
  upload_ = *space;
  return Status::success();
}

std::vector<Announcement> ShmArena::takeAnnouncements() {
  std::vector<Announcement> out;
  out.swap(pending_);
  return out;
}

std::optional<std::span<uint8_t>> ShmArena::resolve(uint32_t space, uint64_t offset,
                                                    uint64_t nbytes) const {
  auto it = segments_.find(space);
  if (it == segments_.end())
    return std::nullopt;
  return it->second->range(offset, nbytes);
}

std::shared_ptr<Segment> ShmArena::segment(uint32_t space) const {
  auto it = segments_.find(space);
  return it == segments_.end() ? nullptr : it->second;
}

std::vector<uint32_t> ShmArena::resetForNextJob() {
  std::vector<uint32_t> dropped;
  for (size_t i = 1; i < download_.size(); ++i) {
    segments_.erase(download_[i]);
    dropped.push_back(download_[i]);
  }
  download_.resize(1);
  current_ = 0;
  cursor_ = 0;
  // Announcements of dropped segments that were never sent are moot.
  std::erase_if(pending_, [&](const Announcement &a) { return !segments_.count(a.space); });
  return dropped;
}

} // namespace ivc::runtime
