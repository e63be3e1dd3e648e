//===- ArenaTest.cpp - Sealed memfd segments and the shared arena ----------===//
#include "ivc/runtime/transport/TensorSpace.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <linux/memfd.h>
#include <sys/syscall.h>
#include <unistd.h>

using namespace ivc::runtime;

namespace {

TEST(Segment, SealedAgainstResizing) {
  Result<std::shared_ptr<Segment>> s = Segment::create(1 << 16);
  ASSERT_TRUE(s.ok()) << s.error().message;
  int fd = (*s)->fd();
  int seals = ::fcntl(fd, F_GET_SEALS);
  EXPECT_EQ(seals & (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL),
            F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL);
  // What a hostile worker would try on its descriptor.
  EXPECT_NE(::ftruncate(fd, 0), 0);
  EXPECT_NE(::ftruncate(fd, 1 << 20), 0);
  EXPECT_NE(::fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0);
  // Both mappings see the same bytes.
  Result<std::shared_ptr<Segment>> other = Segment::adopt(UniqueFd(::dup(fd)), 1 << 16);
  ASSERT_TRUE(other.ok()) << other.error().message;
  (*s)->data()[100] = 42;
  EXPECT_EQ((*other)->data()[100], 42);
}

TEST(Segment, AdoptRefusesUnsealedMemory) {
  int fd = static_cast<int>(::syscall(SYS_memfd_create, "plain", MFD_CLOEXEC));
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::ftruncate(fd, 4096), 0);
  Result<std::shared_ptr<Segment>> s = Segment::adopt(UniqueFd(fd), 4096);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, Error::Protocol);
}

TEST(Segment, RangesAreBoundsCheckedWithoutOverflow) {
  auto s = *Segment::create(4096);
  EXPECT_TRUE(s->range(0, 4096).has_value());
  EXPECT_TRUE(s->range(4096, 0).has_value());
  EXPECT_FALSE(s->range(4096, 1).has_value());
  EXPECT_FALSE(s->range(1, 4096).has_value());
  EXPECT_FALSE(s->range(UINT64_MAX, 2).has_value());
  EXPECT_FALSE(s->range(8, UINT64_MAX - 4).has_value());
}

TEST(ShmArena, DownloadAllocationAlignsAndGrows) {
  ShmArena::Options o;
  o.downloadBytes = 1 << 16;
  o.uploadBytes = 1 << 12;
  o.maxBytes = 1 << 24;
  auto arena = std::move(*ShmArena::create(o));
  std::vector<Announcement> first = arena->takeAnnouncements();
  ASSERT_EQ(first.size(), 2u); // download and upload
  EXPECT_TRUE(arena->takeAnnouncements().empty());

  Placement a = *arena->allocateDownload(100);
  Placement b = *arena->allocateDownload(1);
  EXPECT_EQ(a.space, b.space);
  EXPECT_EQ(a.offset, 0u);
  EXPECT_EQ(b.offset % ShmArena::Alignment, 0u);
  EXPECT_GE(b.offset, 100u);
  // Too big for what is left: a new segment, announced once.
  Placement c = *arena->allocateDownload(1 << 17);
  EXPECT_NE(c.space, a.space);
  std::vector<Announcement> grown = arena->takeAnnouncements();
  ASSERT_EQ(grown.size(), 1u);
  EXPECT_EQ(grown[0].space, c.space);
  EXPECT_GE(grown[0].size, 1u << 17);
  EXPECT_TRUE(arena->resolve(c.space, c.offset, 1 << 17).has_value());
  // The job ends: extra segments go, allocation restarts at the bottom.
  std::vector<uint32_t> dropped = arena->resetForNextJob();
  EXPECT_EQ(dropped, std::vector<uint32_t>{c.space});
  EXPECT_FALSE(arena->resolve(c.space, 0, 1).has_value());
  EXPECT_EQ(arena->allocateDownload(8)->offset, 0u);
}

TEST(ShmArena, LimitsAndUploadGrowth) {
  ShmArena::Options o;
  o.downloadBytes = 1 << 16;
  o.uploadBytes = 1 << 12;
  o.maxBytes = 1 << 20;
  auto arena = std::move(*ShmArena::create(o));
  arena->takeAnnouncements();
  uint32_t oldUpload = arena->uploadSpace();
  ASSERT_TRUE(arena->growUpload(1 << 14).ok());
  EXPECT_NE(arena->uploadSpace(), oldUpload);
  EXPECT_FALSE(arena->resolve(oldUpload, 0, 1).has_value());
  std::vector<Announcement> a = arena->takeAnnouncements();
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].role, Announcement::Upload);
  // A worker asking for more than the arena may hold is refused.
  EXPECT_FALSE(arena->growUpload(1 << 21).ok());
  EXPECT_FALSE(arena->allocateDownload(1 << 21).ok());
  EXPECT_LE(arena->totalBytes(), o.maxBytes);
  // Unknown spaces and out-of-range descriptors resolve to nothing.
  EXPECT_FALSE(arena->resolve(9999, 0, 1).has_value());
  EXPECT_FALSE(arena->resolve(arena->uploadSpace(), 1 << 14, 1).has_value());
}

} // namespace
