//===- FramedTransport.cpp - LSP base protocol: Content-Length framing ---===//
#include "FdReader.h"

#include "ivc/lsp/Transport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <mutex>
#include <utility>

namespace ivc::lsp {

namespace {

// A body larger than this is refused (and skipped) rather than allocated.
constexpr size_t MaxBody = size_t(256) << 20;
// A refused body larger than this is not skipped either: such a length is
// garbage, and the headers of the next message are found by scanning.
constexpr size_t MaxSkip = size_t(4) << 30;

// A header name is an HTTP token (RFC 9110): a JSON body is not one.
bool isHeaderName(llvm::StringRef name) {
  return !name.empty() && llvm::all_of(name, [](char c) {
    return llvm::isAlnum(c) || llvm::StringRef("!#$%&'*+-.^_`|~").contains(c);
  });
}

class FramedTransport : public Transport {
public:
  FramedTransport(int in, int out) : reader_(in), out_(out) {}

  ReadStatus read(std::string &body, std::string &error) override {
    if (skip_ && !reader_.skipBytes(std::exchange(skip_, 0)))
      return ReadStatus::Eof;
    std::string line;
    size_t length = 0;
    bool haveLength = false, badLength = false, sawHeader = false, sawGarbage = false;
    // Headers end at an empty line. Lines that are not `Name: value` are
    // skipped, and a Content-Length header starts a new message wherever it
    // appears in a line (after the rest of a body whose length was wrong,
    // say), so garbage between messages costs one error, not the stream. A
    // Content-Length after garbage (a body where headers should be) means
    // the message before it never ended: that costs one error too (its
    // request would otherwise go unanswered), and the line is read again as
    // the next message's first.
    while (true) {
      if (!next_.empty())
        line = std::exchange(next_, {});
      else if (!reader_.readLine(line))
        return ReadStatus::Eof;
      if (line.empty()) {
        if (sawHeader)
          break;
        continue; // blank lines before the headers
      }
      if (size_t at = llvm::StringRef(line).find_insensitive("content-length:");
          at != llvm::StringRef::npos) {
        if ((haveLength || badLength) && (at > 0 || sawGarbage)) {
          next_ = line.substr(at);
          error = "message headers not ended by an empty line";
          return ReadStatus::Malformed;
        }
        line.erase(0, at);
      }
      sawHeader = true;
      size_t colon = line.find(':');
      llvm::StringRef name = llvm::StringRef(line).substr(0, colon).trim();
      if (colon == std::string::npos || !isHeaderName(name)) {
        sawGarbage = true;
        continue;
      }
      llvm::StringRef value = llvm::StringRef(line).substr(colon + 1).trim();
      if (name.equals_insensitive("Content-Length")) {
        unsigned long long n = 0;
        if (value.getAsInteger(10, n)) {
          badLength = true;
        } else {
          length = size_t(n);
          haveLength = true;
        }
      }
    }
    if (!haveLength || badLength) {
      error = "message without a valid Content-Length header";
      return ReadStatus::Malformed;
    }
    if (length > MaxBody) {
      error = "message of " + std::to_string(length) + " bytes is over the limit of " +
              std::to_string(MaxBody);
      // Answered now, skipped before the next message is read.
      skip_ = length <= MaxSkip ? length : 0;
      return ReadStatus::Malformed;
    }
    if (!reader_.readBytes(length, body))
      return ReadStatus::Eof;
    return ReadStatus::Message;
  }

  void write(const llvm::json::Value &message) override { writeText(serialize(message)); }

  void writeText(std::string body) override {
    std::string header = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
    std::lock_guard<std::mutex> lock(mutex_);
    if (writeAll(out_, header))
      writeAll(out_, body);
  }

private:
  FdReader reader_;
  size_t skip_ = 0; // bytes of a refused body still to skip
  std::string next_; // a header line that began the next message
  int out_;
  std::mutex mutex_;
};

} // namespace

std::unique_ptr<Transport> createFramedTransport(int in, int out) {
  return std::make_unique<FramedTransport>(in, out);
}

} // namespace ivc::lsp
