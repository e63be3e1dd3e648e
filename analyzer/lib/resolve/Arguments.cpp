//===- Arguments.cpp - What calls of the file's functions pass ------------===//
//
// A helper's parameter is whatever its calls pass. The analysis follows a
// parameter to those arguments when every use of the function is a direct
// call of its name (`square(k)`); a function handed on (`map(square, ns)`)
// is called out of sight.
//
//===----------------------------------------------------------------------===//
#include "ivc/resolve/Values.h"

namespace ivc {

using namespace ir;

bool ValueAnalysis::argumentsOf(const Op &param, std::vector<const Op *> &out) {
  const Op *def = uses_.userOf(&param);
  if (!def || !def->is(OpKind::FunctionDef))
    return false;
  bool varArgs = param.paramKind() == ParamKind::VarArgs;
  bool varKeywords = param.paramKind() == ParamKind::VarKeywords;
  std::optional<size_t> position;
  if (param.paramKind() != ParamKind::KeywordOnly && !varArgs && !varKeywords) {
    size_t i = 0;
    for (const Op *o : def->operands) {
      if (o == &param)
        position = i;
      else if (o && o->is(OpKind::Param))
        ++i;
    }
  }
  const Symbol *f = scopes_.resolve(def->text, scopes_.enclosingScope(def)).symbol;
  if (!f || f->bindings.size() != 1)
    return false;
  for (const Op *read : uses_.readsOf(f)) {
    const Op *call = uses_.userOf(read);
    if (!call || !call->is(OpKind::Call) || call->operand(0) != read)
      return false; // handed on
    if (varArgs || varKeywords) { // `*ms`, `**kw`: every argument of that sort
      for (const Op *a : llvm::drop_begin(call->operands)) {
        bool keyword = a && (a->is(OpKind::Keyword) || a->is(OpKind::KwSplat));
        if (a && keyword == varKeywords)
          out.push_back(a->is(OpKind::Keyword) ? a->operand(0) : a);
      }
      continue;
    }
    const Op *arg = position ? argument(*call, *position, param.text)
                             : keywordArgument(*call, param.text);
    if (arg) {
      out.push_back(arg);
      continue;
    }
    // Not passed by position or name: an unpacked `*xs` or `**kw` may hold
    // it (what it unpacks), or else the default (null: none at all).
    bool unpacked = false;
    for (const Op *a : llvm::drop_begin(call->operands))
      if (a && (a->is(OpKind::Starred) || a->is(OpKind::KwSplat))) {
        unpacked = true;
        out.push_back(a);
      }
    if (!unpacked)
      out.push_back(param.operand(0));
  }
  return true;
}

} // namespace ivc
