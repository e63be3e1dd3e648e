//===- FdReader.h - Buffered line and block reads from a descriptor ------===//
#ifndef IVC_LIB_LSP_FDREADER_H
#define IVC_LIB_LSP_FDREADER_H

#include <cstddef>
#include <string>
#include <string_view>

namespace ivc::lsp {

/// Buffered reads from a file descriptor that retry on EINTR. The framed
/// transport reads header lines and then a body of N bytes from one stream.
class FdReader {
public:
  explicit FdReader(int fd) : fd_(fd) {}

  /// Reads a line without its terminator (\n or \r\n). False at end of
  /// input with nothing read.
  bool readLine(std::string &line);
  /// Longer lines are returned in pieces of this size.
  static constexpr size_t MaxLine = 64 * 1024;
  /// Reads exactly `n` bytes; false at end of input before that.
  bool readBytes(size_t n, std::string &out);
  /// Skips `n` bytes; false at end of input before that.
  bool skipBytes(size_t n);

private:
  bool fill();

  int fd_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
};

/// Writes all of `data` to `fd`, retrying on EINTR; false if the descriptor
/// is gone (the client exited).
bool writeAll(int fd, std::string_view data);

} // namespace ivc::lsp

#endif
