//===- ReadFile.cpp - Reading the files a command was given ---------------===//
//
// Inputs come from directory walks and from editors' and hooks' settings, so
// a path may name a FIFO nobody writes to, /dev/zero, or a symlink to either.
// Only regular files are read (opened without blocking, checked after the
// open, so the file checked is the file read), up to a size no Python
// source reaches; `-` reads standard input up to the same size.
//
//===----------------------------------------------------------------------===//
#include "Cli.h"

#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ivc::cli {

namespace {

constexpr size_t MaxInputBytes = size_t(64) << 20;

std::optional<std::string> fail(const std::string &path, const std::string &why) {
  // One write per line: `ivc check` reads files on several threads, and
  // the unbuffered stream writes each piece of a `<<` chain on its own.
  llvm::errs() << ("ivc: error: cannot read '" + path + "': " + why + "\n");
  return std::nullopt;
}

/// Reads `fd` to its end; nothing when it holds more than MaxInputBytes.
std::optional<std::string> readAll(int fd, std::string &error) {
  std::string out;
  char buf[1 << 16];
  while (true) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    if (n == 0)
      return out;
    if (out.size() + size_t(n) > MaxInputBytes) {
      error = "more than " + std::to_string(MaxInputBytes >> 20) + " MiB";
      return std::nullopt;
    }
    out.append(buf, size_t(n));
  }
}

} // namespace

std::optional<std::string> readFile(const std::string &path) {
  std::string error;
  if (path == "-") {
    std::optional<std::string> text = readAll(STDIN_FILENO, error);
    return text ? text : fail("<stdin>", error);
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return fail(path, std::strerror(errno));
  struct stat st;
  std::optional<std::string> text;
  if (::fstat(fd, &st) != 0)
    error = std::strerror(errno);
  else if (S_ISDIR(st.st_mode))
    error = "it is a directory";
  else if (!S_ISREG(st.st_mode))
    error = "not a regular file";
  else if (size_t(st.st_size) > MaxInputBytes)
    error = "more than " + std::to_string(MaxInputBytes >> 20) + " MiB";
  else
    text = readAll(fd, error);
  ::close(fd);
  return text ? text : fail(path, error);
}

} // namespace ivc::cli
