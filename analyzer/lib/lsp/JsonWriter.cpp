//===- JsonWriter.cpp -----------------------------------------------------===//
#include "JsonWriter.h"

namespace ivc::lsp {

namespace {

bool needsEscape(char c) {
  return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
}

void writeString(std::string_view s, std::string &out) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string fixed;
  if (!llvm::json::isUTF8(llvm::StringRef(s.data(), s.size()))) {
    fixed = llvm::json::fixUTF8(llvm::StringRef(s.data(), s.size()));
    s = fixed;
  }
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    // Runs that need no escape (all of most messages) are copied at once.
    size_t run = i;
    while (run < s.size() && !needsEscape(s[run]))
      ++run;
    out.append(s.data() + i, run - i);
    if (run == s.size())
      break;
    char c = s[run];
    out += '\\';
    switch (c) {
    case '"': out += '"'; break;
    case '\\': out += '\\'; break;
    case '\n': out += 'n'; break;
    case '\r': out += 'r'; break;
    case '\t': out += 't'; break;
    case '\b': out += 'b'; break;
    case '\f': out += 'f'; break;
    default:
      out += "u00";
      out += hex[static_cast<unsigned char>(c) >> 4];
      out += hex[static_cast<unsigned char>(c) & 15];
    }
    i = run + 1;
  }
  out += '"';
}

} // namespace

void JsonWriter::separate() {
  if (afterKey_) {
    afterKey_ = false;
    return;
  }
  if (first_.empty())
    return;
  if (!first_.back())
    out_ += ',';
  first_.back() = false;
}

JsonWriter &JsonWriter::objectBegin() {
  separate();
  out_ += '{';
  first_.push_back(true);
  return *this;
}

JsonWriter &JsonWriter::objectEnd() {
  out_ += '}';
  first_.pop_back();
  return *this;
}

JsonWriter &JsonWriter::arrayBegin() {
  separate();
  out_ += '[';
  first_.push_back(true);
  return *this;
}

JsonWriter &JsonWriter::arrayEnd() {
  out_ += ']';
  first_.pop_back();
  return *this;
}

JsonWriter &JsonWriter::key(std::string_view k) {
  separate();
  writeString(k, out_);
  out_ += ':';
  afterKey_ = true;
  return *this;
}

JsonWriter &JsonWriter::value(std::string_view s) {
  separate();
  writeString(s, out_);
  return *this;
}

JsonWriter &JsonWriter::value(int64_t n) {
  separate();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter &JsonWriter::value(bool b) {
  separate();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter &JsonWriter::null() {
  separate();
  out_ += "null";
  return *this;
}

JsonWriter &JsonWriter::raw(std::string_view json) {
  separate();
  out_ += json;
  return *this;
}

JsonWriter &JsonWriter::json(const llvm::json::Value &v) {
  switch (v.kind()) {
  case llvm::json::Value::Null: return null();
  case llvm::json::Value::Boolean: return value(*v.getAsBoolean());
  case llvm::json::Value::String: {
    llvm::StringRef s = *v.getAsString();
    return value(std::string_view(s.data(), s.size()));
  }
  case llvm::json::Value::Number:
    if (std::optional<int64_t> i = v.getAsInteger())
      return value(*i);
    {
      std::string d;
      llvm::raw_string_ostream(d) << v; // doubles: llvm's formatting
      return raw(d);
    }
  case llvm::json::Value::Array:
    arrayBegin();
    for (const llvm::json::Value &e : *v.getAsArray())
      json(e);
    return arrayEnd();
  case llvm::json::Value::Object:
    // The wire needs no key order; llvm::json's own printer sorts every
    // object's keys, which costs more than the rest of the writing.
    objectBegin();
    for (const auto &[k, e] : *v.getAsObject()) {
      key(std::string_view(k.str().data(), k.str().size()));
      json(e);
    }
    return objectEnd();
  }
  return *this;
}

} // namespace ivc::lsp
