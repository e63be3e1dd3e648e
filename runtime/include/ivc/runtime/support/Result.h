//===- Result.h - Value-or-error return type for the runtime -------------===//
//
// The runtime reports failures as values, not exceptions: hostile worker
// bytes and dead processes are expected inputs, and every caller must decide
// what a failure means for its mediator. (C++20 has no std::expected.)
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_SUPPORT_RESULT_H
#define IVC_RUNTIME_SUPPORT_RESULT_H

#include <cassert>
#include <string>
#include <utility>
#include <variant>

namespace ivc::runtime {

/// Why an operation failed. `kind` lets callers react (retire a worker on a
/// protocol violation, report a timeout as such) without parsing messages.
struct Error {
  enum Kind {
    Io,        // a system call failed (errno in the message)
    Timeout,   // a deadline passed
    Closed,    // the peer closed the channel or died
    Protocol,  // the peer sent something the protocol does not allow
    Codec,     // bytes that do not decode as a value within the limits
    Invalid,   // a caller's argument is wrong
  };
  Kind kind = Io;
  std::string message;

  static Error io(std::string m) { return {Io, std::move(m)}; }
  static Error timeout(std::string m) { return {Timeout, std::move(m)}; }
  static Error closed(std::string m) { return {Closed, std::move(m)}; }
  static Error protocol(std::string m) { return {Protocol, std::move(m)}; }
  static Error codec(std::string m) { return {Codec, std::move(m)}; }
  static Error invalid(std::string m) { return {Invalid, std::move(m)}; }
  /// `what: strerror(errno)`.
  static Error fromErrno(const std::string &what);
};

const char *errorKindName(Error::Kind kind);

template <typename T> class [[nodiscard]] Result {
public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}
  explicit operator bool() const { return v_.index() == 0; }
  bool ok() const { return v_.index() == 0; }
  T &operator*() { assert(ok()); return std::get<0>(v_); }
  const T &operator*() const { assert(ok()); return std::get<0>(v_); }
  T *operator->() { assert(ok()); return &std::get<0>(v_); }
  const T *operator->() const { assert(ok()); return &std::get<0>(v_); }
  const Error &error() const { assert(!ok()); return std::get<1>(v_); }
  Error takeError() { assert(!ok()); return std::move(std::get<1>(v_)); }

private:
  std::variant<T, Error> v_;
};

/// Success or an error, for operations that return nothing.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error error) : failed_(true), error_(std::move(error)) {}
  static Status success() { return {}; }
  explicit operator bool() const { return !failed_; }
  bool ok() const { return !failed_; }
  const Error &error() const { assert(failed_); return error_; }

private:
  bool failed_ = false;
  Error error_;
};

} // namespace ivc::runtime

#endif
