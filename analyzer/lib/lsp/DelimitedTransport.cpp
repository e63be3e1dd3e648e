//===- DelimitedTransport.cpp - `---`-separated messages for lit tests ---===//
#include "FdReader.h"

#include "ivc/lsp/Transport.h"

#include "llvm/Support/FormatVariadic.h"

#include <mutex>

namespace ivc::lsp {

namespace {

class DelimitedTransport : public Transport {
public:
  DelimitedTransport(int in, int out) : reader_(in), out_(out) {}

  ReadStatus read(std::string &body, std::string &error) override {
    body.clear();
    std::string line;
    bool any = false;
    while (reader_.readLine(line)) {
      if (line.rfind("#", 0) == 0)
        continue; // RUN, CHECK and other comment lines of the test
      if (line == "---") {
        if (any)
          return ReadStatus::Message;
        continue;
      }
      any |= line.find_first_not_of(" \t") != std::string::npos;
      body += line;
      body += '\n';
    }
    return any ? ReadStatus::Message : ReadStatus::Eof;
  }

  void write(const llvm::json::Value &message) override {
    // llvm::json prints object keys sorted; indent for readable CHECK lines.
    std::string text = llvm::formatv("{0:2}", message).str() + "\n";
    std::lock_guard<std::mutex> lock(mutex_);
    writeAll(out_, text);
  }

private:
  FdReader reader_;
  int out_;
  std::mutex mutex_;
};

} // namespace

std::unique_ptr<Transport> createDelimitedTransport(int in, int out) {
  return std::make_unique<DelimitedTransport>(in, out);
}

} // namespace ivc::lsp
