//===- JsonRpc.cpp --------------------------------------------------------===//
#include "JsonRpc.h"

#include "JsonWriter.h"
#include "ivc/support/Json.h"

#include <exception>

namespace ivc::lsp {

using llvm::json::Object;
using llvm::json::Value;

namespace {

std::string keyOf(const Value &id) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << id;
  return os.str();
}

Object errorObject(ErrorCode code, const std::string &message) {
  return Object{{"code", int64_t(code)}, {"message", message}};
}

} // namespace

// Note: json::Object's initializer-list constructor copies its values (an
// initializer_list is const), so large values are moved in by assignment.

void Reply::operator()(Value result) const {
  Object message;
  message["result"] = std::move(result);
  dispatcher_->answer(key_, serial_, std::move(message));
}

void Reply::fail(ErrorCode code, std::string message) const {
  dispatcher_->answer(key_, serial_, Object{{"error", errorObject(code, message)}});
}

bool Reply::done() const { return !dispatcher_->pending(key_, serial_); }

void Dispatcher::onRequest(const std::string &method, RequestHandler handler) {
  requests_[method] = std::move(handler);
}

void Dispatcher::onNotification(const std::string &method, NotificationHandler handler) {
  notifications_[method] = std::move(handler);
}

void Dispatcher::setState(State s) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = s;
}

Dispatcher::State Dispatcher::state() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return state_;
}

void Dispatcher::answer(const std::string &key, uint64_t serial, Object message) {
  Value id = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(key);
    if (it == pending_.end() || it->second.serial != serial)
      return; // answered already, or cancelled
    id = std::move(it->second.id);
    pending_.erase(it);
  }
  message["jsonrpc"] = "2.0";
  message["id"] = std::move(id);
  transport_.write(Value(std::move(message)));
}

bool Dispatcher::pending(const std::string &key, uint64_t serial) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = pending_.find(key);
  return it != pending_.end() && it->second.serial == serial;
}

void Dispatcher::error(const Value &id, ErrorCode code, const std::string &message) {
  transport_.write(Object{{"jsonrpc", "2.0"}, {"id", id}, {"error", errorObject(code, message)}});
}

void Dispatcher::malformed(const std::string &message) {
  error(nullptr, ErrorCode::ParseError, message);
}

void Dispatcher::notify(llvm::StringRef method, Value params) {
  Object message{{"jsonrpc", "2.0"}, {"method", method}};
  message["params"] = std::move(params);
  transport_.write(Value(std::move(message)));
}

void Dispatcher::notifyText(llvm::StringRef method, std::string_view params) {
  JsonWriter w;
  w.objectBegin().key("jsonrpc").value("2.0").key("method");
  w.value(std::string_view(method.data(), method.size())).key("params").raw(params).objectEnd();
  transport_.writeText(w.take());
}

void Dispatcher::log(int type, const std::string &message) {
  notify("window/logMessage", Object{{"type", type}, {"message", message}});
}

void Dispatcher::cancel(const Value &id) {
  std::string key = keyOf(id);
  uint64_t serial;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = pending_.find(key);
    if (it == pending_.end())
      return; // finished already: nothing to cancel
    serial = it->second.serial;
  }
  Reply(this, key, serial).fail(ErrorCode::RequestCancelled, "request cancelled");
}

void Dispatcher::dispatch(llvm::StringRef body) {
  llvm::Expected<Value> parsed = parseUntrustedJson(body);
  if (!parsed) {
    error(nullptr, ErrorCode::ParseError, "parse error: " + llvm::toString(parsed.takeError()));
    return;
  }
  Object *msg = parsed->getAsObject();
  if (!msg) {
    error(nullptr, ErrorCode::InvalidRequest, "a message must be a JSON object");
    return;
  }
  // An id is an integer or a string; anything else cannot be answered by
  // id. (A null id is allowed only in a response the client could not tie
  // to a request.)
  const Value *idField = msg->get("id");
  std::optional<Value> id;
  if (idField && (idField->getAsInteger() || idField->getAsUINT64() || idField->getAsString()))
    id = *idField;
  else if (idField && (idField->kind() != Value::Null || msg->get("method"))) {
    error(nullptr, ErrorCode::InvalidRequest, "id must be an integer or a string");
    return;
  }
  Value replyId = id ? *id : Value(nullptr);
  std::optional<llvm::StringRef> version = msg->getString("jsonrpc");
  if (!version || *version != "2.0") {
    error(replyId, ErrorCode::InvalidRequest, "jsonrpc must be \"2.0\"");
    return;
  }
  const Value *methodField = msg->get("method");
  if (!methodField) {
    // A response to a request of ours; the server sends none it waits for.
    if (id && (msg->get("result") || msg->get("error")))
      return;
    error(replyId, ErrorCode::InvalidRequest, "a message needs a method");
    return;
  }
  std::optional<llvm::StringRef> method = methodField->getAsString();
  if (!method) {
    error(replyId, ErrorCode::InvalidRequest, "method must be a string");
    return;
  }
  Value params = nullptr;
  if (const Value *p = msg->get("params")) {
    if (p->kind() != Value::Object && p->kind() != Value::Array) {
      error(replyId, ErrorCode::InvalidRequest, "params must be an object or an array");
      return;
    }
    params = *p;
  }
  State state = this->state();

  if (!id) { // a notification: never answered
    if (*method == "$/cancelRequest") {
      if (const Object *p = params.getAsObject())
        if (const Value *cancelId = p->get("id"))
          cancel(*cancelId);
      return;
    }
    // Before initialization and after shutdown only `exit` counts.
    if (*method != "exit" && state != State::Running)
      return;
    auto it = notifications_.find(*method);
    if (it == notifications_.end()) {
      if (!method->startswith("$/"))
        log(3, "ivc: ignoring unknown notification '" + method->str() + "'");
      return;
    }
    std::optional<RpcError> failure;
    try {
      failure = it->second(params);
    } catch (const std::exception &e) {
      failure = RpcError{ErrorCode::InternalError, e.what()};
    }
    if (failure)
      log(1, "ivc: " + method->str() + ": " + failure->message);
    return;
  }

  if (state == State::Uninitialized && *method != "initialize") {
    error(*id, ErrorCode::ServerNotInitialized, "the server is not initialized");
    return;
  }
  if (state == State::Running && *method == "initialize") {
    error(*id, ErrorCode::InvalidRequest, "the server is already initialized");
    return;
  }
  if (state == State::ShutDown) {
    error(*id, ErrorCode::InvalidRequest, "the server is shutting down");
    return;
  }
  auto it = requests_.find(*method);
  if (it == requests_.end()) {
    error(*id, ErrorCode::MethodNotFound, "method not found: " + method->str());
    return;
  }
  std::string key = keyOf(*id);
  uint64_t serial;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    serial = ++serial_;
    if (!pending_.emplace(key, Pending{*id, serial}).second) {
      error(*id, ErrorCode::InvalidRequest, "a request with this id is still pending");
      return;
    }
  }
  Reply reply(this, key, serial);
  try {
    it->second(params, reply);
  } catch (const std::exception &e) {
    reply.fail(ErrorCode::InternalError, e.what());
  }
}

} // namespace ivc::lsp
