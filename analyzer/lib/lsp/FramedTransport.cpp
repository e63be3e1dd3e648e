//===- FramedTransport.cpp - LSP base protocol: Content-Length framing ---===//
#include "FdReader.h"

#include "ivc/lsp/Transport.h"

#include <mutex>
#include <optional>

namespace ivc::lsp {

namespace {

// A body larger than this is refused (and skipped) rather than allocated.
constexpr size_t MaxBody = size_t(256) << 20;

class FramedTransport : public Transport {
public:
  FramedTransport(int in, int out) : reader_(in), out_(out) {}

  ReadStatus read(std::string &body, std::string &error) override {
    std::string line;
    std::optional<size_t> length;
    bool badLength = false, sawHeader = false;
    // Headers end at an empty line. Lines that are not `Name: value` are
    // skipped, so garbage between messages costs one error, not the stream.
    while (true) {
      if (!reader_.readLine(line))
        return ReadStatus::Eof;
      if (line.empty()) {
        if (sawHeader)
          break;
        continue; // blank lines before the headers
      }
      sawHeader = true;
      size_t colon = line.find(':');
      if (colon == std::string::npos)
        continue;
      llvm::StringRef name = llvm::StringRef(line).substr(0, colon).trim();
      llvm::StringRef value = llvm::StringRef(line).substr(colon + 1).trim();
      if (name.equals_insensitive("Content-Length")) {
        unsigned long long n = 0;
        if (value.getAsInteger(10, n))
          badLength = true;
        else
          length = size_t(n);
      }
    }
    if (!length || badLength) {
      error = "message without a valid Content-Length header";
      return ReadStatus::Malformed;
    }
    if (*length > MaxBody) {
      error = "message of " + std::to_string(*length) + " bytes is over the limit of " +
              std::to_string(MaxBody);
      return reader_.skipBytes(*length) ? ReadStatus::Malformed : ReadStatus::Eof;
    }
    if (!reader_.readBytes(*length, body))
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
  int out_;
  std::mutex mutex_;
};

} // namespace

std::unique_ptr<Transport> createFramedTransport(int in, int out) {
  return std::make_unique<FramedTransport>(in, out);
}

} // namespace ivc::lsp
