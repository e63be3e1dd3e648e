//===- ResidentMemory.cpp - This process's resident memory ----------------===//
#include "ivc/runtime/host/ResidentMemory.h"

#include <algorithm>
#include <charconv>
#include <fcntl.h>
#include <unistd.h>

namespace ivc::runtime {

Result<uint64_t> residentBytes() {
  // Opened once and read with pread: the file regenerates on every read from
  // offset 0. Threads share the descriptor; pread keeps no offset.
  static const int fd = ::open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Error::fromErrno("open /proc/self/statm");
  char text[128];
  ssize_t n = ::pread(fd, text, sizeof text, 0);
  if (n <= 0)
    return Error::fromErrno("read /proc/self/statm");
  // "size resident shared text lib data dt", in pages.
  const char *end = text + n;
  const char *p = std::find(static_cast<const char *>(text), end, ' ');
  uint64_t pages = 0;
  if (p == end || std::from_chars(p + 1, end, pages).ec != std::errc())
    return Error::io("unexpected /proc/self/statm: " + std::string(text, size_t(n)));
  static const uint64_t pageSize = uint64_t(::sysconf(_SC_PAGESIZE));
  return pages * pageSize;
}

} // namespace ivc::runtime
