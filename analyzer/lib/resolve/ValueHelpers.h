//===- ValueHelpers.h - Shared by the value analysis's files (internal) -===//
#ifndef IVC_LIB_RESOLVE_VALUEHELPERS_H
#define IVC_LIB_RESOLVE_VALUEHELPERS_H

#include "ivc/resolve/Values.h"

#include <algorithm>
#include <initializer_list>

namespace ivc::values {

using ir::Op;
using ir::OpKind;

inline Value make(ValueKind k, std::string_view text = {}, Op *op = nullptr) {
  Value v;
  v.kind = k;
  v.text = text;
  v.op = op;
  return v;
}

inline Value knownStr(std::string_view s) {
  Value v = make(ValueKind::Str, s);
  v.known = true;
  return v;
}

inline bool isOneOf(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

inline void addAll(ValueSet &into, const ValueSet &from) {
  for (const Value &v : from)
    addValue(into, v);
}

/// Whether a value may be a tensor: typed as one (or as a delivered activation).
inline bool anyTensor(const ValueSet &s) {
  return std::any_of(s.begin(), s.end(), [](const Value &v) {
    return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
  });
}

/// Whether every value is a Python number or bool.
inline bool allNumeric(const ValueSet &s) {
  return std::all_of(s.begin(), s.end(), [](const Value &v) {
    return v.kind == ValueKind::Number || v.kind == ValueKind::Bool;
  });
}

} // namespace ivc::values

#endif
