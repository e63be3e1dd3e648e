//===- ResidentMemoryTest.cpp - The reading FAST memory budgets use -------===//
#include "ivc/runtime/host/ResidentMemory.h"

#include <gtest/gtest.h>

#include <cstring>
#include <sys/mman.h>

using namespace ivc::runtime;

TEST(ResidentMemory, FollowsPagesTouchedAndReturned) {
  constexpr size_t kBytes = 64 << 20;
  Result<uint64_t> before = residentBytes();
  ASSERT_TRUE(before) << before.error().message;
  EXPECT_GT(*before, 0u);
  void *block = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(block, MAP_FAILED);
  // Mapped but untouched: not resident yet.
  Result<uint64_t> mapped = residentBytes();
  ASSERT_TRUE(mapped);
  EXPECT_LT(*mapped, *before + (8 << 20));
  std::memset(block, 1, kBytes);
  Result<uint64_t> touched = residentBytes();
  ASSERT_TRUE(touched);
  EXPECT_GE(*touched, *before + kBytes - (4 << 20));
  ::munmap(block, kBytes);
  Result<uint64_t> returned = residentBytes();
  ASSERT_TRUE(returned);
  EXPECT_LE(*returned, *touched - kBytes + (4 << 20));
}
