//===- Json.cpp - Parsing JSON that comes from outside -------------------===//
#include "ivc/support/Json.h"

namespace ivc {

namespace {

/// The deepest nesting of arrays and objects in `text`, counting brackets
/// outside strings; stops counting past `limit`. Malformed text is left to
/// the parser to describe.
unsigned nestingDepth(llvm::StringRef text, unsigned limit) {
  unsigned depth = 0, deepest = 0;
  bool inString = false;
  for (size_t i = 0; i < text.size() && deepest <= limit; ++i) {
    char c = text[i];
    if (inString) {
      if (c == '\\')
        ++i; // the escaped character cannot end the string
      else if (c == '"')
        inString = false;
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

} // namespace

llvm::Expected<llvm::json::Value> parseUntrustedJson(llvm::StringRef text) {
  if (nestingDepth(text, MaxJsonNesting) > MaxJsonNesting)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "arrays and objects nested deeper than " +
                                       std::to_string(MaxJsonNesting) + " levels");
  return llvm::json::parse(text);
}

} // namespace ivc
