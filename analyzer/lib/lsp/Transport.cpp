//===- Transport.cpp ------------------------------------------------------===//
#include "ivc/lsp/Transport.h"

namespace ivc::lsp {

std::unique_ptr<Transport> createFramedTransport(int in, int out);
std::unique_ptr<Transport> createDelimitedTransport(int in, int out);

namespace {

bool needsEscape(char c) {
  return static_cast<unsigned char>(c) < 0x20 || c == '"' || c == '\\';
}

void writeString(llvm::StringRef s, std::string &out) {
  static constexpr char hex[] = "0123456789abcdef";
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

void write(const llvm::json::Value &v, std::string &out) {
  switch (v.kind()) {
  case llvm::json::Value::Null: out += "null"; return;
  case llvm::json::Value::Boolean: out += *v.getAsBoolean() ? "true" : "false"; return;
  case llvm::json::Value::String: writeString(*v.getAsString(), out); return;
  case llvm::json::Value::Number:
    if (std::optional<int64_t> i = v.getAsInteger()) {
      out += std::to_string(*i);
    } else {
      llvm::raw_string_ostream os(out);
      os << v; // doubles: llvm's formatting
    }
    return;
  case llvm::json::Value::Array: {
    out += '[';
    bool first = true;
    for (const llvm::json::Value &e : *v.getAsArray()) {
      if (!first)
        out += ',';
      first = false;
      write(e, out);
    }
    out += ']';
    return;
  }
  case llvm::json::Value::Object: {
    out += '{';
    bool first = true;
    for (const auto &[key, value] : *v.getAsObject()) {
      if (!first)
        out += ',';
      first = false;
      writeString(key, out);
      out += ':';
      write(value, out);
    }
    out += '}';
    return;
  }
  }
}

} // namespace

// llvm::json's own printer sorts every object's keys and writes character by
// character; for a 5,000-line file's diagnostics that cost more than building
// them. The wire needs no order, so this writes keys in map order.
std::string serialize(const llvm::json::Value &message) {
  std::string text;
  text.reserve(4096);
  write(message, text);
  return text;
}

std::unique_ptr<Transport> createFdTransport(int in, int out, InputStyle style) {
  return style == InputStyle::Delimited ? createDelimitedTransport(in, out)
                                        : createFramedTransport(in, out);
}

} // namespace ivc::lsp
