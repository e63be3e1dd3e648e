//===- Result.cpp ---------------------------------------------------------===//
#include "ivc/runtime/support/Result.h"

#include <cerrno>
#include <cstring>

namespace ivc::runtime {

Error Error::fromErrno(const std::string &what) {
  int e = errno;
  return {Io, what + ": " + std::strerror(e)};
}

const char *errorKindName(Error::Kind kind) {
  switch (kind) {
  case Error::Io: return "io";
  case Error::Timeout: return "timeout";
  case Error::Closed: return "closed";
  case Error::Protocol: return "protocol";
  case Error::Codec: return "codec";
  case Error::Invalid: return "invalid";
  }
  return "unknown";
}

} // namespace ivc::runtime
