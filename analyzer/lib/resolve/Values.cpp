//===- Values.cpp - Abstract values: names, bindings, manifests -----------===//
//
// The core of the value analysis: memoized, cycle-safe valuesOf(), names
// through their bindings, and what a capture manifest binds. Attributes,
// subscripts and calls are in ValueOperations.cpp; iteration in
// ValueIteration.cpp.
//
//===----------------------------------------------------------------------===//
#include "ValueHelpers.h"

#include "ivc/policy/OpCatalog.h"
#include "ivc/resolve/Manifest.h"

#include <algorithm>
#include <cstring>

namespace ivc {

using namespace ir;
using namespace values;

namespace {

constexpr size_t MaxValues = 8;

bool sameValue(const Value &a, const Value &b) {
  return a.kind == b.kind && a.receiver == b.receiver && a.known == b.known && a.text == b.text &&
         a.op == b.op && a.manifest == b.manifest;
}

} // namespace

// Whether binding `b` has certainly run before `load` does: an unconditional
// binding statement earlier in a region that contains the load.
static bool boundBefore(const Binding &b, const Op *load) {
  if (!b.site || (b.kind != Binding::Kind::Assign && b.kind != Binding::Kind::Import &&
                  b.kind != Binding::Kind::ImportFrom && b.kind != Binding::Kind::Function &&
                  b.kind != Binding::Kind::Class))
    return false;
  // The statement that binds: the site itself, or the statement after its
  // operands in the same region.
  const Op *stmt = b.site;
  if (stmt->cls() != OpClass::Stmt && stmt->parentRegion) {
    auto &ops = stmt->parentRegion->ops;
    auto it = std::find(ops.begin(), ops.end(), stmt);
    while (it != ops.end() && (*it)->cls() != OpClass::Stmt)
      ++it;
    if (it == ops.end())
      return false;
    stmt = *it;
  }
  for (const Op *at = load; at && at->parentRegion; at = at->parentOp())
    if (at->parentRegion == stmt->parentRegion)
      return stmt->index < at->index && stmt != at;
  return false;
}

void addValue(ValueSet &set, const Value &v) {
  for (const Value &e : set)
    if (sameValue(e, v))
      return;
  if (set.size() < MaxValues)
    set.push_back(v);
  else if (std::none_of(set.begin(), set.end(),
                        [](const Value &e) { return e.kind == ValueKind::Unknown; }))
    set.back() = Value::unknown();
}

ValueAnalysis::ValueAnalysis(const Module &module, const SourceFile &source,
                             const ScopeTree &scopes, const TraceBindings &traces,
                             const Manifest *manifest,
                             const std::vector<std::string> &traceMethods,
                             const std::vector<std::string> &runtimeModules,
                             const OpCatalog *catalog)
    : module_(module), source_(source), scopes_(scopes), traces_(traces), manifest_(manifest),
      traceMethods_(traceMethods), runtimeModules_(runtimeModules), catalog_(catalog),
      slot_(module.numOps(), -1), uses_(module, scopes) {}

std::string_view ValueAnalysis::save(std::string_view s) {
  if (s.empty())
    return {};
  char *mem = arena_.Allocate<char>(s.size());
  std::memcpy(mem, s.data(), s.size());
  return {mem, s.size()};
}

const ValueSet &ValueAnalysis::valuesOf(const Op *op) {
  static const ValueSet unknownSet = {Value::unknown()};
  if (!op || op->index >= slot_.size())
    return unknownSet;
  int32_t &s = slot_[op->index];
  if (s >= 0)
    return memo_[s];
  if (s == -2) { // a cycle (`x = x + 1`): what we know so far is "anything"
    ++cuts_;
    return unknownSet;
  }
  // A chain of definitions deeper than this (`x1 = x0` ... `x50000 =
  // x49999`, or as many functions each calling the previous one) would
  // overflow the stack; past it, a value is "anything", which only ever
  // makes a verdict more cautious (an unknown callee is not FAST).
  if (depth_ >= MaxDepth) {
    ++cuts_;
    return unknownSet;
  }
  s = -2;
  ++depth_;
  ValueSet result = compute(op);
  --depth_;
  if (result.empty())
    result.push_back(Value::unknown());
  int32_t index = int32_t(memo_.size());
  memo_.push_back(std::move(result));
  slot_[op->index] = index;
  return memo_[index];
}

bool ValueAnalysis::isModelExpression(const Op *op) const {
  if (traces_.modelExpressions.empty())
    return false;
  std::string_view text = source_.slice(op->range);
  return std::find(traces_.modelExpressions.begin(), traces_.modelExpressions.end(), text) !=
         traces_.modelExpressions.end();
}

ValueSet ValueAnalysis::compute(const Op *op) {
  switch (op->kind) {
  case OpKind::Name:
    return ofName(op);
  case OpKind::Attribute:
    return ofAttribute(op);
  case OpKind::Subscript:
    return ofSubscript(op);
  case OpKind::Call:
    return ofCall(op);
  case OpKind::BinaryOp:
    return ofBinary(op);
  case OpKind::Str:
    return {knownStr(op->text)};
  case OpKind::FString: {
    std::string folded;
    for (Op *part : op->operands) {
      const ValueSet &pv = valuesOf(part);
      if (pv.size() != 1 || pv[0].kind != ValueKind::Str || !pv[0].known)
        return {make(ValueKind::Str)};
      folded += pv[0].text;
    }
    return {knownStr(save(folded))};
  }
  case OpKind::FormatValue:
    return {make(ValueKind::Str)};
  case OpKind::Int:
  case OpKind::Float:
  case OpKind::Complex:
    return {make(ValueKind::Number, op->text)};
  case OpKind::True:
  case OpKind::False:
    return {make(ValueKind::Bool)};
  case OpKind::None:
    return {make(ValueKind::NoneValue)};
  case OpKind::List:
  case OpKind::Tuple:
  case OpKind::Set:
  case OpKind::Dict:
  case OpKind::ListComp:
  case OpKind::SetComp:
  case OpKind::DictComp:
  case OpKind::GeneratorExp:
    return {make(ValueKind::Container, {}, const_cast<Op *>(op))};
  case OpKind::Lambda:
    return {make(ValueKind::Lambda, {}, const_cast<Op *>(op))};
  case OpKind::IfExp: {
    ValueSet out;
    addAll(out, valuesOf(op->operand(1)));
    addAll(out, valuesOf(op->operand(2)));
    return out;
  }
  case OpKind::BoolOp: {
    ValueSet out;
    addAll(out, valuesOf(op->operand(0)));
    addAll(out, valuesOf(op->operand(1)));
    return out;
  }
  case OpKind::NamedExpr:
    return valuesOf(op->operand(0));
  case OpKind::UnaryOp: {
    const ValueSet &v = valuesOf(op->operand(0));
    if (op->text == "not")
      return {make(ValueKind::Bool)};
    if (anyTensor(v))
      return {make(ValueKind::Tensor)};
    return {allNumeric(v) ? make(ValueKind::Number) : Value::unknown()};
  }
  case OpKind::Compare:
    return ofCompare(op);
  default:
    return {Value::unknown()};
  }
}

bool ValueAnalysis::reshapesItself(const Binding &b, const Symbol *s) {
  if (b.kind != Binding::Kind::Assign || !b.path.empty())
    return false;
  // Through a chain of reshapes: `q = q.view(...).transpose(0, 1)`.
  const Op *op = b.value;
  int reshapes = 0;
  for (; op && op->is(OpKind::Call) && reshapes < 8; ++reshapes) {
    const Op *callee = op->operand(0);
    if (!callee || !callee->is(OpKind::Attribute) ||
        !isOneOf(callee->text, {"view", "reshape", "transpose", "permute", "flatten",
                                "unflatten", "squeeze", "unsqueeze", "t", "movedim", "narrow",
                                "detach", "contiguous", "view_as", "reshape_as", "expand",
                                "expand_as"}))
      return false;
    op = callee->operand(0);
  }
  return reshapes > 0 && op && op->is(OpKind::Name) && scopes_.resolve(op).symbol == s;
}

ValueSet ValueAnalysis::ofName(const Op *op) {
  if (isModelExpression(op))
    return {make(ValueKind::Envoy)};
  NameResolution r = scopes_.resolve(op);
  if (r.symbol) {
    for (const Symbol *s : traces_.modelSymbols)
      if (s == r.symbol)
        return {make(ValueKind::Envoy)};
    for (const Symbol *s : traces_.tracerSymbols)
      if (s == r.symbol)
        return {make(ValueKind::Tracer)};
  }
  // A manifest describes the module-level names of the frame it captured.
  if (manifest_ && r.kind != NameResolution::Kind::Local &&
      r.kind != NameResolution::Kind::Enclosing)
    if (const ManifestBinding *b = manifest_->lookup(op->text))
      return ofManifest(*b);
  switch (r.kind) {
  case NameResolution::Kind::Builtin:
    return {make(ValueKind::Builtin, op->text)};
  case NameResolution::Kind::Undefined: {
    // A caller's value the plan guards is of the kind the guard checks.
    if (std::optional<CallerAssumption> a = callerAssumption(op)) {
      if (*a == CallerAssumption::NumberOrTensor)
        return {make(ValueKind::Number), make(ValueKind::Tensor)};
      return {make(*a == CallerAssumption::SmallNumber ? ValueKind::Number : ValueKind::Tensor)};
    }
    // `from M import *` may have bound it; a runtime binds a name spelled
    // like an allowed module (or `nnsight`) to that module, whether or not
    // the file imports it.
    ValueSet out;
    for (Op *star : scopes_.moduleScope()->starImports)
      addValue(out, make(ValueKind::Qualified,
                         save(std::string(star->text2) + "." + std::string(op->text))));
    if (llvm::is_contained(runtimeModules_, op->text) || op->text == "nnsight")
      addValue(out, make(ValueKind::Qualified, op->text));
    if (out.empty())
      out.push_back(Value::unknown());
    return out;
  }
  default: {
    // The analysis is flow-insensitive: every read of a symbol is the union
    // of all its bindings. Computing it once per symbol instead of once per
    // read matters in notebook exports, where `tracer`, `hidden`, ... are
    // module globals bound by hundreds of trace blocks and read in each.
    // The per-read part (below) is added to a copy.
    ValueSet out;
    auto known = symbolValues_.find(r.symbol);
    if (known != symbolValues_.end()) {
      out = known->second;
    } else {
      uint64_t cutsBefore = cuts_;
      // `q = q.view(...)` makes nothing the other bindings do not: a view
      // of a tensor is of its kind, and any other value has no such method.
      // (Evaluated, it would read `q` inside its own computation: anything.)
      bool others = llvm::any_of(r.symbol->bindings,
                                 [&](const Binding &b) { return !reshapesItself(b, r.symbol); });
      for (const Binding &b : r.symbol->bindings)
        if (!others || !reshapesItself(b, r.symbol))
          addAll(out, ofBinding(b));
      // A name of the module, or of the function around a trace, is a free
      // name of the mediators that read it, and a runtime binds a free name
      // spelled like an allowed module to that module. Unless the file binds
      // it only by importing that very module (`import torch`), both are
      // possible: `torch = [0]` then `torch.save(...)` is torch.save.
      if (outerScope(r.symbol->scope) &&
          llvm::is_contained(runtimeModules_, op->text) &&
          !llvm::all_of(r.symbol->bindings, [&](const Binding &b) {
            return b.kind == Binding::Kind::Import && b.site && b.site->text == op->text &&
                   b.site->alias.empty();
          }))
        addValue(out, make(ValueKind::Qualified, op->text));
      if (cuts_ == cutsBefore)
        symbolValues_[r.symbol] = out;
    }
    // A free name the caller supplies is of the kind the plan makes the
    // runtime check, or may be anything besides what the file binds it to.
    if (fromCaller(op)) {
      if (callerAssumption(op) == CallerAssumption::NumberOrTensor)
        return {make(ValueKind::Number), make(ValueKind::Tensor)};
      if (std::optional<ValueKind> kind = callerKind(*r.symbol))
        return {make(*kind)};
      // What a runtime binds a free name to crosses the value codec (from
      // the caller, or from a peer at a barrier): data, never a bound
      // method of data (`ids = tok(s).input_ids` above the trace).
      llvm::erase_if(out, [](const Value &v) {
        return v.kind == ValueKind::Method &&
               (v.receiver == ValueKind::Tensor || v.receiver == ValueKind::Activation ||
                v.receiver == ValueKind::Str || v.receiver == ValueKind::Container ||
                v.receiver == ValueKind::Number || v.receiver == ValueKind::Unknown);
      });
      addValue(out, Value::unknown());
    }
    // A module or class body reads names at run time: before (or without)
    // the binding running, a builtin's name is still the builtin
    // (`x = eval(s)` above a later `eval = None`).
    if ((r.symbol->scope->kind == ScopeKind::Module || r.symbol->scope->kind == ScopeKind::Class) &&
        isBuiltinName(op->text) &&
        std::none_of(r.symbol->bindings.begin(), r.symbol->bindings.end(),
                     [&](const Binding &b) { return boundBefore(b, op); }))
      addValue(out, make(ValueKind::Builtin, op->text));
    return out;
  }
  }
}

ValueSet ValueAnalysis::ofBinding(const Binding &b) {
  switch (b.kind) {
  case Binding::Kind::Import: {
    std::string_view module = b.site->text;
    // `import a.b` binds `a`; `import a.b as c` binds c to `a.b`.
    if (b.site->alias.empty())
      module = module.substr(0, module.find('.'));
    return {make(ValueKind::Qualified, module, b.site)};
  }
  case Binding::Kind::ImportFrom: {
    std::string q(b.site->number, '.');
    q += b.site->text2;
    if (!b.site->text2.empty())
      q += '.';
    q += b.site->text;
    return {make(ValueKind::Qualified, save(q), b.site)};
  }
  case Binding::Kind::Function:
    return {make(ValueKind::UserFunction, b.site->text, b.site)};
  case Binding::Kind::Class:
    return {make(ValueKind::UserClass, b.site->text, b.site)};
  case Binding::Kind::Assign:
  case Binding::Kind::Walrus:
    if (!b.value)
      return {Value::unknown()};
    if (b.path.empty())
      return valuesOf(b.value);
    return elementAt(valuesOf(b.value), b.path);
  case Binding::Kind::Loop:
    return elementOf(b.value, b.path);
  case Binding::Kind::WithAs: {
    // `with model.trace(...) as tracer` binds the tracer.
    ValueSet out;
    if (b.value && b.value->is(OpKind::Call) && b.path.empty())
      for (const Value &v : valuesOf(b.value->operand(0)))
        if (v.kind == ValueKind::Method && v.receiver == ValueKind::Envoy &&
            std::find(traceMethods_.begin(), traceMethods_.end(), v.text) != traceMethods_.end())
          addValue(out, make(ValueKind::Tracer));
    if (out.empty())
      out.push_back(Value::unknown());
    return out;
  }
  case Binding::Kind::Param: {
    // Part of the model when every call passes part of the model
    // (`def decode(m, h): return m.lm_head(h)` called `decode(model, h)`).
    std::vector<const Op *> passed;
    ValueSet out;
    if (!b.site || !argumentsOf(*b.site, passed) || passed.empty())
      return {Value::unknown()};
    for (const Op *arg : passed) {
      const ValueSet &vs = arg ? valuesOf(arg) : ValueSet{Value::unknown()};
      if (vs.empty() ||
          !llvm::all_of(vs, [](const Value &v) { return v.kind == ValueKind::Envoy; }))
        return {Value::unknown()};
      addAll(out, vs);
    }
    return out;
  }
  default:
    return {Value::unknown()};
  }
}

ValueSet ValueAnalysis::ofManifest(const ManifestBinding &b) {
  Value v;
  v.manifest = &b;
  switch (b.kind) {
  case ManifestBinding::Kind::Module:
    v.kind = ValueKind::Qualified;
    v.text = b.name;
    break;
  case ManifestBinding::Kind::Builtin:
    v.kind = ValueKind::Builtin;
    v.text = b.name;
    break;
  case ManifestBinding::Kind::Function:
    v.kind = ValueKind::UserFunction;
    v.text = b.name;
    break;
  case ManifestBinding::Kind::Model:
    v.kind = ValueKind::Envoy;
    v.text = b.path;
    break;
  case ManifestBinding::Kind::Tensor:
    v.kind = ValueKind::Tensor;
    break;
  case ManifestBinding::Kind::Value:
    if (b.type == "str") {
      v.kind = ValueKind::Str;
      v.known = b.value.has_value();
      if (b.value)
        v.text = *b.value;
    } else if (b.type == "int" || b.type == "float") {
      v.kind = ValueKind::Number;
    } else if (b.type == "bool") {
      v.kind = ValueKind::Bool;
    } else if (b.type == "NoneType") {
      v.kind = ValueKind::NoneValue;
    } else if (b.type == "list" || b.type == "tuple" || b.type == "dict" || b.type == "set") {
      v.kind = ValueKind::Container;
    }
    break;
  default:
    break;
  }
  return {v};
}

} // namespace ivc
