//===- Values.cpp - Abstract values of expressions ------------------------===//
#include "ivc/resolve/Values.h"

#include "ivc/policy/OpCatalog.h"
#include "ivc/resolve/Manifest.h"

#include <algorithm>
#include <cstring>
#include <functional>

namespace ivc {

using namespace ir;

namespace {

constexpr size_t MaxValues = 8;

Value make(ValueKind k, std::string_view text = {}, Op *op = nullptr) {
  Value v;
  v.kind = k;
  v.text = text;
  v.op = op;
  return v;
}

Value knownStr(std::string_view s) {
  Value v = make(ValueKind::Str, s);
  v.known = true;
  return v;
}

bool sameValue(const Value &a, const Value &b) {
  return a.kind == b.kind && a.receiver == b.receiver && a.known == b.known && a.text == b.text &&
         a.op == b.op && a.manifest == b.manifest;
}

bool isOneOf(std::string_view s, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

// Builtins whose result kind is known.
ValueKind builtinResult(std::string_view name) {
  // sum, min, max, abs, round and pow also take tensors: their result is unknown.
  if (isOneOf(name, {"len", "int", "float", "divmod", "ord", "hash", "id", "complex"}))
    return ValueKind::Number;
  if (isOneOf(name, {"bool", "isinstance", "issubclass", "callable", "any", "all", "hasattr"}))
    return ValueKind::Bool;
  if (isOneOf(name, {"str", "repr", "format", "ascii", "chr", "hex", "oct", "bin"}))
    return ValueKind::Str;
  if (isOneOf(name, {"list", "tuple", "dict", "set", "frozenset", "sorted", "reversed", "range",
                     "enumerate", "zip", "map", "filter"}))
    return ValueKind::Container;
  if (name == "print")
    return ValueKind::NoneValue;
  return ValueKind::Unknown;
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

bool isViewMethod(std::string_view m) {
  return isOneOf(m, {"view", "view_as", "reshape", "reshape_as", "transpose", "permute", "t",
                     "squeeze", "unsqueeze", "expand", "expand_as", "narrow", "select",
                     "unflatten", "flatten", "diagonal", "unbind", "split", "chunk", "movedim",
                     "moveaxis", "swapaxes", "swapdims", "detach", "unfold", "as_strided"});
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

static void addAll(ValueSet &into, const ValueSet &from) {
  for (const Value &v : from)
    addValue(into, v);
}

ValueAnalysis::ValueAnalysis(const Module &module, const SourceFile &source,
                             const ScopeTree &scopes, const TraceBindings &traces,
                             const Manifest *manifest,
                             const std::vector<std::string> &traceMethods,
                             const OpCatalog *catalog)
    : module_(module), source_(source), scopes_(scopes), traces_(traces), manifest_(manifest),
      traceMethods_(traceMethods), catalog_(catalog), slot_(module.numOps(), -1) {}

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
  s = -2;
  ValueSet result = compute(op);
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
    for (const Value &x : v)
      if (x.kind == ValueKind::Tensor || x.kind == ValueKind::Activation)
        return {make(ValueKind::Tensor)};
    return {make(ValueKind::Number)};
  }
  case OpKind::Compare:
    return {make(ValueKind::Bool)};
  default:
    return {Value::unknown()};
  }
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
    // `from M import *` may have bound it.
    ValueSet out;
    for (Op *star : scopes_.moduleScope()->starImports)
      addValue(out, make(ValueKind::Qualified,
                         save(std::string(star->text2) + "." + std::string(op->text))));
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
      for (const Binding &b : r.symbol->bindings)
        addAll(out, ofBinding(b));
      if (cuts_ == cutsBefore)
        symbolValues_[r.symbol] = out;
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
  default:
    return {Value::unknown()};
  }
}

ValueSet ValueAnalysis::ofAttribute(const Op *op) {
  if (isModelExpression(op))
    return {make(ValueKind::Envoy)};
  std::string_view attr = op->text;
  ValueSet out;
  for (const Value &base : valuesOf(op->operand(0))) {
    switch (base.kind) {
    case ValueKind::Qualified:
      addValue(out, make(ValueKind::Qualified,
                         save(std::string(base.text) + "." + std::string(attr)), base.op));
      break;
    case ValueKind::Envoy:
      if (isOneOf(attr, {"output", "input", "inputs"})) {
        addValue(out, make(ValueKind::Activation, base.text, const_cast<Op *>(op)));
      } else if (isOneOf(attr, {"weight", "bias"})) {
        addValue(out, make(ValueKind::Tensor));
      } else if (isOneOf(attr, {"save", "skip", "next", "all", "parameters", "named_parameters",
                                "to", "source", "stop"}) ||
                 std::find(traceMethods_.begin(), traceMethods_.end(), attr) !=
                     traceMethods_.end()) {
        Value m = make(ValueKind::Method, attr, const_cast<Op *>(op));
        m.receiver = ValueKind::Envoy;
        addValue(out, m);
      } else {
        std::string path = base.text.empty() ? std::string(attr)
                                             : std::string(base.text) + "." + std::string(attr);
        addValue(out, make(ValueKind::Envoy, save(path)));
      }
      break;
    case ValueKind::Builtin:
    case ValueKind::Activation:
      // Views share the delivered tensor's storage: writes through them are
      // in-place updates of the activation.
      if (isOneOf(attr, {"data", "T", "mT", "H", "mH", "real", "imag"})) {
        addValue(out, base);
        break;
      }
      [[fallthrough]];
    case ValueKind::Tensor:
    case ValueKind::Tracer:
    case ValueKind::Str:
    case ValueKind::Container:
    case ValueKind::Number:
    case ValueKind::Unknown:
    case ValueKind::Instance: {
      if (attr == "grad" || attr == "T" || attr == "mT" || attr == "data") {
        addValue(out, make(ValueKind::Tensor));
        break;
      }
      Value m = make(ValueKind::Method, attr, const_cast<Op *>(op));
      m.receiver = base.kind;
      addValue(out, m);
      break;
    }
    default:
      addValue(out, Value::unknown());
      break;
    }
  }
  return out;
}

ValueSet ValueAnalysis::ofSubscript(const Op *op) {
  ValueSet out;
  const Op *index = op->operand(1);
  for (const Value &base : valuesOf(op->operand(0))) {
    switch (base.kind) {
    case ValueKind::Envoy: {
      // A static index into a module list names one submodule; anything else, all of them.
      std::string_view key = index && index->is(OpKind::Int) ? index->text : "*";
      std::string path = base.text.empty() ? std::string(key)
                                           : std::string(base.text) + "." + std::string(key);
      addValue(out, make(ValueKind::Envoy, save(path)));
      break;
    }
    case ValueKind::Activation:
      addValue(out, base); // a view of the delivered value: in-place writes reach it
      break;
    case ValueKind::Tensor:
      addValue(out, make(ValueKind::Tensor));
      break;
    case ValueKind::Container:
      if (base.op && (base.op->is(OpKind::Tuple) || base.op->is(OpKind::List)) && index &&
          index->is(OpKind::Int)) {
        size_t i = std::strtoul(std::string(index->text).c_str(), nullptr, 0);
        if (i < base.op->operands.size()) {
          addAll(out, valuesOf(base.op->operands[i]));
          break;
        }
      }
      addValue(out, Value::unknown());
      break;
    case ValueKind::Method:
      // tracer.iter[0:3]; anything else (h.shape[0]) is unknown.
      addValue(out, base.receiver == ValueKind::Tracer ? make(ValueKind::Container, {}, nullptr)
                                                       : Value::unknown());
      break;
    default:
      addValue(out, Value::unknown());
      break;
    }
  }
  return out;
}

ValueSet ValueAnalysis::ofCall(const Op *op) {
  ValueSet out;
  for (const Value &callee : valuesOf(op->operand(0))) {
    switch (callee.kind) {
    case ValueKind::Builtin: {
      ValueKind k = builtinResult(callee.text);
      if (callee.text == "chr" && op->operands.size() == 2 && op->operand(1)->is(OpKind::Int)) {
        std::string s;
        unsigned long cp = std::strtoul(std::string(op->operand(1)->text).c_str(), nullptr, 0);
        if (cp < 0x80) {
          s += char(cp);
          addValue(out, knownStr(save(s)));
          break;
        }
      }
      if (callee.text == "str" && op->operands.size() == 2) {
        const ValueSet &arg = valuesOf(op->operand(1));
        if (arg.size() == 1 && arg[0].kind == ValueKind::Str) {
          addValue(out, arg[0]);
          break;
        }
      }
      addValue(out, make(k));
      break;
    }
    case ValueKind::Qualified:
      // Catalogued torch/numpy/einops functions make tensors, math numbers;
      // anything else (torch.nn.Linear(...), a module's class) is unknown.
      if (catalog_ && catalog_->function(callee.text) && callee.text.substr(0, 5) == "math.")
        addValue(out, make(ValueKind::Number));
      else if (catalog_ && catalog_->function(callee.text))
        addValue(out, make(ValueKind::Tensor));
      else
        addValue(out, Value::unknown());
      break;
    case ValueKind::Envoy:
      addValue(out, make(ValueKind::Tensor)); // calling a submodule runs it
      break;
    case ValueKind::UserClass:
      addValue(out, make(ValueKind::Instance, callee.text, callee.op));
      break;
    case ValueKind::UserFunction:
    case ValueKind::Lambda:
      // What its return statements return: a closure made inside it
      // (`clamp = make_clamp(...)`) is then a function of this file.
      if (callee.op)
        addAll(out, returnValues(callee.op));
      else
        addValue(out, Value::unknown());
      break;
    case ValueKind::Method: {
      const Op *attr = callee.op;
      const ValueSet &receivers = valuesOf(attr->operand(0));
      if (callee.receiver == ValueKind::Envoy) {
        if (isOneOf(callee.text, {"next", "all", "to"}))
          addAll(out, receivers);
        else if (callee.text == "save")
          addAll(out, receivers);
        else if (std::find(traceMethods_.begin(), traceMethods_.end(), callee.text) !=
                 traceMethods_.end())
          addValue(out, make(ValueKind::Tracer));
        else
          addValue(out, Value::unknown());
      } else if (callee.receiver == ValueKind::Tracer) {
        // barrier = tracer.barrier(2); barrier(): nnsight's own objects.
        addValue(out, make(ValueKind::Tracer));
      } else if (callee.receiver == ValueKind::Activation) {
        // save(), in-place methods and views return (a view of) the delivered value.
        if (callee.text == "save" || (callee.text.size() > 1 && callee.text.back() == '_') ||
            isViewMethod(callee.text))
          addAll(out, receivers);
        else
          addValue(out, make(ValueKind::Tensor));
      } else if (callee.receiver == ValueKind::Tensor) {
        addValue(out, make(ValueKind::Tensor));
      } else if (callee.receiver == ValueKind::Str && callee.text == "join" &&
                 op->operands.size() == 2) {
        // "".join(["__cl", "ass__"]) folds to a known string.
        std::string sep;
        const ValueSet &sv = receivers;
        const Op *items = op->operand(1);
        bool known = sv.size() == 1 && sv[0].known && items &&
                     (items->is(OpKind::List) || items->is(OpKind::Tuple));
        std::string joined;
        if (known) {
          for (size_t i = 0; i < items->operands.size() && known; ++i) {
            const ValueSet &iv = valuesOf(items->operands[i]);
            known = iv.size() == 1 && iv[0].kind == ValueKind::Str && iv[0].known;
            if (known)
              joined += (i ? std::string(sv[0].text) : std::string()) + std::string(iv[0].text);
          }
        }
        addValue(out, known ? knownStr(save(joined)) : make(ValueKind::Str));
      } else if (callee.receiver == ValueKind::Str) {
        if (isOneOf(callee.text, {"split", "rsplit", "splitlines", "partition", "rpartition"}))
          addValue(out, make(ValueKind::Container));
        else if (isOneOf(callee.text, {"encode", "find", "rfind", "index", "rindex", "count"}) ||
                 callee.text.substr(0, 2) == "is" || callee.text.substr(0, 4) == "ends" ||
                 callee.text.substr(0, 5) == "start")
          addValue(out, Value::unknown());
        else
          addValue(out, make(ValueKind::Str));
      } else {
        addValue(out, Value::unknown());
      }
      break;
    }
    default:
      addValue(out, Value::unknown());
      break;
    }
  }
  return out;
}

ValueSet ValueAnalysis::ofBinary(const Op *op) {
  const ValueSet &l = valuesOf(op->operand(0));
  const ValueSet &r = valuesOf(op->operand(1));
  auto tensorish = [](const ValueSet &s) {
    return std::any_of(s.begin(), s.end(), [](const Value &v) {
      return v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation;
    });
  };
  if (tensorish(l) || tensorish(r))
    return {make(ValueKind::Tensor)};
  bool lStr = l.size() == 1 && l[0].kind == ValueKind::Str;
  bool rStr = r.size() == 1 && r[0].kind == ValueKind::Str;
  if (op->text == "+" && lStr && rStr) {
    if (l[0].known && r[0].known)
      return {knownStr(save(std::string(l[0].text) + std::string(r[0].text)))};
    return {make(ValueKind::Str)};
  }
  if (op->text == "*" && (lStr || rStr)) {
    const Value &s = lStr ? l[0] : r[0];
    const Op *count = lStr ? op->operand(1) : op->operand(0);
    if (s.known && count && count->is(OpKind::Int)) {
      unsigned long n = std::strtoul(std::string(count->text).c_str(), nullptr, 0);
      if (n <= 64) {
        std::string rep;
        for (unsigned long i = 0; i < n; ++i)
          rep += s.text;
        return {knownStr(save(rep))};
      }
    }
    return {make(ValueKind::Str)};
  }
  if (op->text == "%" && lStr)
    return {make(ValueKind::Str)};
  auto numeric = [](const ValueSet &s) {
    return std::all_of(s.begin(), s.end(), [](const Value &v) {
      return v.kind == ValueKind::Number || v.kind == ValueKind::Bool;
    });
  };
  if (numeric(l) && numeric(r))
    return {make(ValueKind::Number)};
  return {Value::unknown()};
}

const ValueSet &ValueAnalysis::returnValues(const Op *function) {
  static const ValueSet unknownSet = {Value::unknown()};
  auto [it, inserted] = returns_.try_emplace(function);
  if (!inserted) {
    if (it->second.empty()) { // in progress (recursion); a computed set is never empty
      ++cuts_;
      return unknownSet;
    }
    return it->second;
  }
  ValueSet out;
  bool sawReturn = false;
  // Return statements of this function, not of functions nested in it.
  std::function<void(const Op *)> walk = [&](const Op *op) {
    for (const Region &r : op->regions)
      for (const Op *child : r.ops) {
        if (child->is(OpKind::Return)) {
          sawReturn = true;
          if (child->operand(0))
            addAll(out, valuesOf(child->operand(0)));
          else
            addValue(out, make(ValueKind::NoneValue));
        }
        if (!child->is(OpKind::FunctionDef) && !child->is(OpKind::Lambda) &&
            !child->is(OpKind::ClassDef))
          walk(child);
      }
  };
  walk(function);
  if (!sawReturn)
    addValue(out, make(ValueKind::NoneValue));
  ValueSet &slot = returns_[function];
  slot = std::move(out);
  return slot;
}

ValueSet ValueAnalysis::elementAt(const ValueSet &values, llvm::ArrayRef<uint8_t> path) {
  // `a, b = f()` where f returns a tuple display: a is its first element.
  ValueSet out;
  for (const Value &v : values) {
    if (v.kind == ValueKind::Container && v.op &&
        (v.op->is(OpKind::Tuple) || v.op->is(OpKind::List)) && path[0] < v.op->operands.size() &&
        !v.op->operands[path[0]]->is(OpKind::Starred)) {
      const ValueSet &e = valuesOf(v.op->operands[path[0]]);
      addAll(out, path.size() > 1 ? elementAt(e, path.drop_front()) : e);
    } else {
      addValue(out, Value::unknown());
    }
  }
  return out.empty() ? ValueSet{Value::unknown()} : out;
}

ValueSet ValueAnalysis::elementOf(const Op *iterable, llvm::ArrayRef<uint8_t> path) {
  if (!iterable)
    return {Value::unknown()};
  // enumerate(x), zip(a, b) and friends shape their elements.
  if (iterable->is(OpKind::Call)) {
    for (const Value &callee : valuesOf(iterable->operand(0))) {
      if (callee.kind != ValueKind::Builtin)
        continue;
      if (callee.text == "enumerate" && iterable->operands.size() >= 2) {
        if (path.empty())
          return {Value::unknown()};
        if (path[0] == 0)
          return {make(ValueKind::Number)};
        return elementOf(iterable->operand(1), path.drop_front());
      }
      if (callee.text == "zip") {
        if (path.empty())
          return {Value::unknown()};
        if (size_t(path[0]) + 1 < iterable->operands.size())
          return elementOf(iterable->operands[path[0] + 1], path.drop_front());
        return {Value::unknown()};
      }
      if (callee.text == "range")
        return {make(ValueKind::Number)};
      if (isOneOf(callee.text, {"reversed", "sorted", "list", "tuple", "iter"}) &&
          iterable->operands.size() >= 2)
        return elementOf(iterable->operand(1), path);
    }
  }
  if (iterable->is(OpKind::List) || iterable->is(OpKind::Tuple) || iterable->is(OpKind::Set)) {
    ValueSet out;
    for (Op *e : iterable->operands) {
      if (!path.empty() && e && (e->is(OpKind::Tuple) || e->is(OpKind::List)) &&
          path[0] < e->operands.size())
        addAll(out, valuesOf(e->operands[path[0]]));
      else if (path.empty())
        addAll(out, valuesOf(e));
      else
        addValue(out, Value::unknown());
    }
    return out.empty() ? ValueSet{Value::unknown()} : out;
  }
  ValueSet out;
  for (const Value &v : valuesOf(iterable)) {
    if (v.kind == ValueKind::Container && v.op && v.op != iterable &&
        (v.op->is(OpKind::List) || v.op->is(OpKind::Tuple) || v.op->is(OpKind::Set))) {
      addAll(out, elementOf(v.op, path)); // a name bound to a display
      continue;
    }
    if (v.kind == ValueKind::Envoy && path.empty()) {
      std::string p = v.text.empty() ? "*" : std::string(v.text) + ".*";
      addValue(out, make(ValueKind::Envoy, save(p)));
    } else if (v.kind == ValueKind::Tensor || v.kind == ValueKind::Activation) {
      addValue(out, make(ValueKind::Tensor));
    } else {
      addValue(out, Value::unknown());
    }
  }
  return out;
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
