//===- Segment.cpp - memfd segments, sealed by the host -------------------===//
#include "ivc/runtime/transport/Segment.h"

#include <cerrno>
#include <fcntl.h>
#include <linux/memfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>

namespace ivc::runtime {

namespace {
int memfdCreate(const char *name, unsigned flags) {
  return static_cast<int>(::syscall(SYS_memfd_create, name, flags));
}
constexpr int RequiredSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
} // namespace

Segment::~Segment() {
  if (base_)
    ::munmap(base_, size_);
}

Result<std::shared_ptr<Segment>> Segment::create(uint64_t size) {
  if (size == 0)
    return Error::invalid("a segment cannot be empty");
  UniqueFd fd(memfdCreate("ivc-arena", MFD_CLOEXEC | MFD_ALLOW_SEALING));
  if (!fd.valid())
    return Error::fromErrno("memfd_create");
  if (::ftruncate(fd.get(), static_cast<off_t>(size)) != 0)
    return Error::fromErrno("ftruncate");
  if (::fcntl(fd.get(), F_ADD_SEALS, RequiredSeals) != 0)
    return Error::fromErrno("F_ADD_SEALS");
  void *p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (p == MAP_FAILED)
    return Error::fromErrno("mmap");
  return std::shared_ptr<Segment>(new Segment(std::move(fd), size, static_cast<uint8_t *>(p)));
}

Result<std::shared_ptr<Segment>> Segment::adopt(UniqueFd fd, uint64_t size) {
  if (size == 0)
    return Error::invalid("a segment cannot be empty");
  int seals = ::fcntl(fd.get(), F_GET_SEALS);
  if (seals < 0)
    return Error::fromErrno("F_GET_SEALS");
  if ((seals & RequiredSeals) != RequiredSeals)
    return Error::protocol("segment is not sealed against resizing");
  // No fstat here: the worker maps after lockdown, where fstat is refused.
  // The grow/shrink seals make the announced size the only possible one;
  // a wrong announcement can only make the mapping shorter than the file.
  void *p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd.get(), 0);
  if (p == MAP_FAILED)
    return Error::fromErrno("mmap");
  return std::shared_ptr<Segment>(new Segment(std::move(fd), size, static_cast<uint8_t *>(p)));
}

std::optional<std::span<uint8_t>> Segment::range(uint64_t offset, uint64_t length) const {
  if (offset > size_ || length > size_ - offset)
    return std::nullopt;
  return std::span<uint8_t>(base_ + offset, length);
}

void Segment::discard() { ::madvise(base_, size_, MADV_REMOVE); }

} // namespace ivc::runtime
