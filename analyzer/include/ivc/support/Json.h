//===- Json.h - Parsing JSON that comes from outside ---------------------===//
//
// llvm::json::parse recurses once per nesting level, so 40,000 '[' in an LSP
// message or a manifest would overflow the stack. Input from users, editors
// and files goes through parseUntrustedJson, which refuses deep nesting
// before parsing.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_SUPPORT_JSON_H
#define IVC_SUPPORT_JSON_H

#include "llvm/Support/JSON.h"

namespace ivc {

/// Far deeper than any manifest, plan or LSP message ivc reads.
constexpr unsigned MaxJsonNesting = 512;

llvm::Expected<llvm::json::Value> parseUntrustedJson(llvm::StringRef text);

} // namespace ivc

#endif
