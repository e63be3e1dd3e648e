//===- OutOfMemory.cpp - Running out of memory is an I/O-class error ------===//
//
// An input too large for the memory the driver may use (a ulimit, a cgroup)
// is something the user can act on: say so and exit 2, as for a file that
// cannot be read, instead of aborting with an uncaught std::bad_alloc or
// tree-sitter's own abort. Only the driver does this; the Python module
// runs in its caller's process, where a MemoryError is the answer.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"

#include <tree_sitter/api.h>

#include <cstdlib>
#include <new>
#include <unistd.h>

namespace ivc::cli {

namespace {

[[noreturn]] void outOfMemory() {
  static const char message[] = "ivc: error: out of memory\n";
  // Nothing that allocates: write(2) directly, then leave without running
  // destructors that could need memory too.
  ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  std::_Exit(UsageOrIO);
}

// A null answer to a request for no bytes (`realloc(p, 0)`) is no failure.
void *checked(void *p, size_t bytes) {
  if (!p && bytes)
    outOfMemory();
  return p;
}

void *treeSitterMalloc(size_t n) { return checked(std::malloc(n), n); }
void *treeSitterCalloc(size_t count, size_t n) { return checked(std::calloc(count, n), count * n); }
void *treeSitterRealloc(void *p, size_t n) { return checked(std::realloc(p, n), n); }

} // namespace

void exitWhenOutOfMemory() {
  std::set_new_handler(outOfMemory);
  ts_set_allocator(treeSitterMalloc, treeSitterCalloc, treeSitterRealloc, std::free);
}

} // namespace ivc::cli
