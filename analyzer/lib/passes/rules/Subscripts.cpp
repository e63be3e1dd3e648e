//===- Subscripts.cpp - Subscripts with private string keys ---------------===//
//
// `d["__builtins__"]`, `vars(x)["_secret"]`, `globals()["__loader__"]`:
// a string key that starts with an underscore reaches interpreter internals
// through mappings that mirror namespaces (IVC206).
//
//===----------------------------------------------------------------------===//
#include "Rules.h"

namespace ivc::rules {

void checkSubscript(ir::Op &op, RuleContext &ctx) {
  if (auto key = knownString(ctx, op.operand(1)); key && isPrivate(*key))
    ctx.reject(op, DiagId::PrivateSubscript, {ctx.subject(), *key});
}

} // namespace ivc::rules
