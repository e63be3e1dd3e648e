//===- Transport.cpp ------------------------------------------------------===//
#include "ivc/lsp/Transport.h"

#include "JsonWriter.h"

namespace ivc::lsp {

std::unique_ptr<Transport> createFramedTransport(int in, int out);
std::unique_ptr<Transport> createDelimitedTransport(int in, int out);

std::string serialize(const llvm::json::Value &message) {
  JsonWriter w;
  w.json(message);
  return w.take();
}

void Transport::writeText(std::string json) {
  llvm::Expected<llvm::json::Value> v = llvm::json::parse(json);
  if (v)
    write(*v);
  else
    llvm::consumeError(v.takeError()); // ours, so well-formed: never happens
}

std::unique_ptr<Transport> createFdTransport(int in, int out, InputStyle style) {
  return style == InputStyle::Delimited ? createDelimitedTransport(in, out)
                                        : createFramedTransport(in, out);
}

} // namespace ivc::lsp
