//===- JsonRpc.h - JSON-RPC 2.0 dispatch for the language server ---------===//
//
// Routes each incoming message to a handler by method, answers what cannot be
// handled with a JSON-RPC error, and keeps the table of requests still being
// answered so that `$/cancelRequest` can answer one early. The dispatcher
// also enforces the LSP lifecycle: only `initialize` before initialization,
// nothing but `exit` after `shutdown`.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_JSONRPC_H
#define IVC_LIB_LSP_JSONRPC_H

#include "ivc/lsp/Transport.h"

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

namespace ivc::lsp {

enum class ErrorCode : int {
  ParseError = -32700,
  InvalidRequest = -32600,
  MethodNotFound = -32601,
  InvalidParams = -32602,
  InternalError = -32603,
  ServerNotInitialized = -32002,
  RequestFailed = -32803,
  ContentModified = -32801,
  RequestCancelled = -32800,
};

struct RpcError {
  ErrorCode code;
  std::string message;
};

class Dispatcher;

/// The one answer to a request. Copies share it: the first reply() or fail()
/// answers, later ones do nothing, and so does any after the request was
/// cancelled. Safe to use from any thread.
class Reply {
public:
  void operator()(llvm::json::Value result) const;
  void fail(ErrorCode code, std::string message) const;
  void fail(const RpcError &e) const { fail(e.code, e.message); }
  /// Whether the request has been answered or cancelled.
  bool done() const;

private:
  friend class Dispatcher;
  Reply(Dispatcher *d, std::string key, uint64_t serial)
      : dispatcher_(d), key_(std::move(key)), serial_(serial) {}
  Dispatcher *dispatcher_;
  std::string key_; // the request id as JSON text
  // Which request of that id: a client may reuse an id once it is answered
  // (or cancelled), and a late reply to the old one must not answer the new.
  uint64_t serial_;
};

/// Reads `params` into a T with `fromJSON`; on failure, an InvalidParams
/// error naming where (`expected integer at params.position.line`).
template <typename T>
std::optional<T> parseParams(const llvm::json::Value &params, RpcError &error) {
  T out{};
  llvm::json::Path::Root root("params");
  if (fromJSON(params, out, root))
    return out;
  error = {ErrorCode::InvalidParams, llvm::toString(root.getError())};
  return std::nullopt;
}

class Dispatcher {
public:
  using RequestHandler = std::function<void(const llvm::json::Value &params, Reply reply)>;
  /// Returns an error to report (notifications have no answer: it is logged
  /// to the client with window/logMessage).
  using NotificationHandler =
      std::function<std::optional<RpcError>(const llvm::json::Value &params)>;

  enum class State { Uninitialized, Running, ShutDown };

  explicit Dispatcher(Transport &transport) : transport_(transport) {}

  void onRequest(const std::string &method, RequestHandler handler);
  void onNotification(const std::string &method, NotificationHandler handler);

  /// Requests with typed params: the handler runs only when they parse.
  template <typename P>
  void onRequest(const std::string &method, std::function<void(const P &, Reply)> handler) {
    onRequest(method, [handler](const llvm::json::Value &params, Reply reply) {
      RpcError error;
      if (std::optional<P> p = parseParams<P>(params, error))
        handler(*p, reply);
      else
        reply.fail(error);
    });
  }
  template <typename P>
  void onNotification(const std::string &method,
                      std::function<std::optional<RpcError>(const P &)> handler) {
    onNotification(method, [handler](const llvm::json::Value &params) -> std::optional<RpcError> {
      RpcError error;
      if (std::optional<P> p = parseParams<P>(params, error))
        return handler(*p);
      return error;
    });
  }

  void setState(State s);
  State state() const;

  /// Handles one message body.
  void dispatch(llvm::StringRef body);
  /// Answers a message the transport could not frame.
  void malformed(const std::string &error);

  void notify(llvm::StringRef method, llvm::json::Value params);
  /// The same with params already serialized (see JsonWriter).
  void notifyText(llvm::StringRef method, std::string_view params);
  /// window/logMessage; `type` 1 error .. 4 log.
  void log(int type, const std::string &message);

private:
  friend class Reply;
  void cancel(const llvm::json::Value &id);
  void answer(const std::string &key, uint64_t serial, llvm::json::Object message);
  bool pending(const std::string &key, uint64_t serial) const;
  void error(const llvm::json::Value &id, ErrorCode code, const std::string &message);

  Transport &transport_;
  std::map<std::string, RequestHandler, std::less<>> requests_;
  std::map<std::string, NotificationHandler, std::less<>> notifications_;
  mutable std::mutex mutex_;
  State state_ = State::Uninitialized;
  struct Pending {
    llvm::json::Value id;
    uint64_t serial;
  };
  /// Requests being answered: id as JSON text -> id, and which request.
  std::map<std::string, Pending> pending_;
  uint64_t serial_ = 0;
};

} // namespace ivc::lsp

#endif
