//===- ValueMutation.cpp - Which displays keep the items they were made with ===//
//
// The value analysis reads the items of a display where it is indexed or
// iterated (`fns = [f, g]; fns[0](x)` calls f). That holds only while nothing
// changes the list: `fns[0] = "x".ljust` would make the call one ivc never
// sized. A display keeps its items when every use of it (or of the one name
// it is bound to, anywhere in the module) only reads it: an index, an
// iteration, a read-only method, or a builtin that copies or walks it.
// Anything else (a store, `append`, an alias, an argument to other code)
// may change it.
//
//===----------------------------------------------------------------------===//
#include "ValueHelpers.h"

namespace ivc {

using namespace ir;
using namespace values;

namespace {

/// Methods that read a list, set or dict without changing it.
bool readOnlyMethod(OpKind container, std::string_view m) {
  switch (container) {
  case OpKind::List: return isOneOf(m, {"index", "count", "copy"});
  case OpKind::Dict: return isOneOf(m, {"items", "values", "keys", "get", "copy"});
  case OpKind::Set:
    return isOneOf(m, {"copy", "union", "intersection", "difference", "symmetric_difference",
                       "issubset", "issuperset", "isdisjoint"});
  default: return false;
  }
}

/// Builtins that only walk, copy or measure what they are given, and never
/// return it (`max(fns, [])` and `sum([], fns)` may: an alias).
bool readOnlyBuiltin(std::string_view f) {
  return isOneOf(f, {"len", "iter", "reversed", "sorted", "list", "tuple", "set", "frozenset",
                     "dict", "enumerate", "zip", "any", "all", "str", "repr", "print",
                     "isinstance", "map", "filter", "bool"});
}

} // namespace

bool ValueAnalysis::onlyRead(const Op *use, OpKind container) {
  const Op *user = uses_.userOf(use);
  if (!user)
    return false;
  switch (user->kind) {
  case OpKind::Subscript:
    return user->operand(0) == use && user->ctx == Ctx::Load;
  case OpKind::Attribute:
    return user->ctx == Ctx::Load && readOnlyMethod(container, user->text);
  case OpKind::Call:
    return user->operand(0) != use && llvm::all_of(valuesOf(user->operand(0)), [](const Value &v) {
             return v.kind == ValueKind::Builtin && readOnlyBuiltin(v.text);
           });
  case OpKind::For: case OpKind::CompFor:
    return user->operand(1) == use;
  case OpKind::ListComp: case OpKind::SetComp: case OpKind::DictComp: case OpKind::GeneratorExp:
    return user->operand(0) == use;
  case OpKind::Starred: // `f(*fns)`, `[*fns]`: its items, not itself
    return user->ctx == Ctx::Load;
  case OpKind::Compare: case OpKind::BinaryOp: case OpKind::UnaryOp:
  case OpKind::FormatValue: case OpKind::If: case OpKind::While:
    return true;
  default:
    return false;
  }
}

bool ValueAnalysis::unchanging(const Op *display) {
  if (!display)
    return false;
  if (display->is(OpKind::Tuple))
    return true;
  OpKind kind = display->kind;
  if (kind != OpKind::List && kind != OpKind::Set && kind != OpKind::Dict)
    return false;
  auto known = unchanging_.find(display);
  if (known != unchanging_.end())
    return known->second;
  unchanging_[display] = false; // while deciding: a display that reaches itself changes
  bool result = false;
  const Op *user = uses_.userOf(display);
  if (user && (user->is(OpKind::Assign) || user->is(OpKind::AnnAssign))) {
    // `fns = [f, g]` (also `a = b = [...]`, `fns: list = [...]`): every read
    // of every name it is bound to.
    bool isValue = user->is(OpKind::Assign) ? user->operands.back() == display
                                            : user->operand(2) == display;
    size_t targets = user->is(OpKind::Assign) ? user->operands.size() - 1 : 1;
    result = isValue && targets > 0;
    for (size_t i = 0; result && i < targets; ++i) {
      const Op *target = user->operand(i);
      const Symbol *s = target && target->is(OpKind::Name) ? scopes_.resolve(target).symbol
                                                          : nullptr;
      result = s && llvm::all_of(uses_.readsOf(s),
                                 [&](const Op *read) { return onlyRead(read, kind); });
    }
  } else if (user) {
    result = onlyRead(display, kind);
  }
  unchanging_[display] = result;
  return result;
}

} // namespace ivc
