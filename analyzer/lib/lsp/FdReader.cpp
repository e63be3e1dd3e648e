//===- FdReader.cpp -------------------------------------------------------===//
#include "FdReader.h"

#include <algorithm>
#include <cerrno>
#include <unistd.h>

namespace ivc::lsp {

bool FdReader::fill() {
  if (eof_)
    return false;
  if (pos_ > 0) {
    buffer_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[65536];
  while (true) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buffer_.append(chunk, size_t(n));
      return true;
    }
    if (n < 0 && errno == EINTR)
      continue;
    eof_ = true; // end of input, or an error that ends it just the same
    return false;
  }
}

bool FdReader::readLine(std::string &line) {
  while (true) {
    size_t nl = buffer_.find('\n', pos_);
    if (nl == std::string::npos && buffer_.size() - pos_ >= MaxLine) {
      // A line this long is garbage: cut it, so memory stays bounded.
      line.assign(buffer_, pos_, MaxLine);
      pos_ += MaxLine;
      return true;
    }
    if (nl != std::string::npos) {
      line.assign(buffer_, pos_, nl - pos_);
      pos_ = nl + 1;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      return true;
    }
    if (!fill()) {
      if (pos_ >= buffer_.size())
        return false;
      line.assign(buffer_, pos_, std::string::npos); // a last line without '\n'
      pos_ = buffer_.size();
      return true;
    }
  }
}

bool FdReader::readBytes(size_t n, std::string &out) {
  while (buffer_.size() - pos_ < n)
    if (!fill())
      return false;
  out.assign(buffer_, pos_, n);
  pos_ += n;
  return true;
}

bool FdReader::skipBytes(size_t n) {
  while (n > 0) {
    if (pos_ >= buffer_.size() && !fill())
      return false;
    size_t take = std::min(n, buffer_.size() - pos_);
    pos_ += take;
    n -= take;
  }
  return true;
}

} // namespace ivc::lsp

namespace ivc::lsp {

bool writeAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data.remove_prefix(size_t(n));
  }
  return true;
}

} // namespace ivc::lsp
