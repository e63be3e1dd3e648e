//===- Transport.h - Reading and writing JSON-RPC messages ---------------===//
//
// Two framings of the same messages:
//  - framed: LSP's base protocol, `Content-Length: N\r\n\r\n` then N bytes of
//    JSON, over file descriptors (stdin/stdout for `ivc lsp`);
//  - delimited: for lit tests, as clangd's -lit-test. Messages are separated by
//    lines `---`; lines starting with `#` are comments (RUN and CHECK lines).
//    Outgoing messages are pretty-printed with sorted keys, so FileCheck lines
//    are stable.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LSP_TRANSPORT_H
#define IVC_LSP_TRANSPORT_H

#include "llvm/Support/JSON.h"

#include <memory>
#include <string>

namespace ivc::lsp {

class Transport {
public:
  virtual ~Transport() = default;

  enum class ReadStatus { Message, Malformed, Eof };
  /// Reads the next message into `body`. Malformed: the framing was broken
  /// (no or a bad Content-Length); the transport has skipped what it could
  /// not frame and the next read goes on after it.
  virtual ReadStatus read(std::string &body, std::string &error) = 0;

  /// Writes one message. Safe to call from several threads.
  virtual void write(const llvm::json::Value &message) = 0;
  /// Writes one message already serialized as compact JSON (the diagnostics
  /// of a large file are written so, without building json::Values). By
  /// default it is parsed and given to write().
  virtual void writeText(std::string json);
};

enum class InputStyle { Standard, Delimited };

/// The compact JSON text of a message, as the framed transport sends it.
std::string serialize(const llvm::json::Value &message);

/// A transport over file descriptors `in` and `out` (not closed by it).
std::unique_ptr<Transport> createFdTransport(int in, int out, InputStyle style);

} // namespace ivc::lsp

#endif
