//===- Transport.cpp ------------------------------------------------------===//
#include "ivc/lsp/Transport.h"

namespace ivc::lsp {

std::unique_ptr<Transport> createFramedTransport(int in, int out);
std::unique_ptr<Transport> createDelimitedTransport(int in, int out);

std::unique_ptr<Transport> createFdTransport(int in, int out, InputStyle style) {
  return style == InputStyle::Delimited ? createDelimitedTransport(in, out)
                                        : createFramedTransport(in, out);
}

} // namespace ivc::lsp
