//===- JsonWriter.h - Compact JSON text without building json::Values ---===//
//
// Publishing the diagnostics of a large file builds thousands of small JSON
// objects; llvm::json allocates a hash map for each. The hot path writes the
// text directly with this writer instead; it inserts commas, escapes
// strings and repairs invalid UTF-8 as llvm::json would.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_JSONWRITER_H
#define IVC_LIB_LSP_JSONWRITER_H

#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ivc::lsp {

class JsonWriter {
public:
  JsonWriter &objectBegin();
  JsonWriter &objectEnd();
  JsonWriter &arrayBegin();
  JsonWriter &arrayEnd();
  /// The key of the next member of the current object.
  JsonWriter &key(std::string_view k);
  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(int64_t n);
  JsonWriter &value(bool b);
  JsonWriter &null();
  /// A json::Value, written in full.
  JsonWriter &json(const llvm::json::Value &v);
  /// Text that is already a JSON value.
  JsonWriter &raw(std::string_view json);

  const std::string &text() const { return out_; }
  std::string take() { return std::move(out_); }

private:
  void separate(); // a comma before every element but the first
  std::string out_;
  std::vector<bool> first_; // per open object or array: nothing written yet
  bool afterKey_ = false;
};

} // namespace ivc::lsp

#endif
