//===- ValueOperations.cpp - Attributes, subscripts, calls, operators -----===//
#include "ValueHelpers.h"

#include "ivc/support/Text.h"

#include "ivc/policy/OpCatalog.h"

#include "llvm/ADT/StringExtras.h"

#include <cstdlib>

namespace ivc {

using namespace ir;
using namespace values;

namespace {

// Builtins whose result kind is known.
ValueKind builtinResult(std::string_view name) {
  // sum, min, max, abs, round and pow also take tensors: their result is unknown.
  if (isOneOf(name, {"len", "int", "float", "divmod", "ord", "hash", "id", "complex"}))
    return ValueKind::Number;
  if (isOneOf(name, {"bool", "isinstance", "issubclass", "callable", "any", "all", "hasattr"}))
    return ValueKind::Bool;
  // bytes and bytearray repeat and concatenate as strings do.
  if (isOneOf(name, {"str", "repr", "format", "ascii", "chr", "hex", "oct", "bin", "bytes",
                     "bytearray"}))
    return ValueKind::Str;
  if (isOneOf(name, {"list", "tuple", "dict", "set", "frozenset", "sorted", "reversed", "range",
                     "enumerate", "zip", "map", "filter"}))
    return ValueKind::Container;
  if (name == "print")
    return ValueKind::NoneValue;
  return ValueKind::Unknown;
}

} // namespace

bool isViewMethod(std::string_view m) {
  return isOneOf(m, {"view", "view_as", "reshape", "reshape_as", "transpose", "permute", "t",
                     "squeeze", "unsqueeze", "expand", "expand_as", "narrow", "select",
                     "unflatten", "flatten", "diagonal", "unbind", "split", "chunk", "movedim",
                     "moveaxis", "swapaxes", "swapdims", "detach", "unfold", "as_strided"});
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
      if (base.text == "config" && !attr.starts_with("_")) {
        // A value of the model's configuration: a runtime gives numbers,
        // booleans and None alone (runtime/python/ivc/_mediator.py).
        addValue(out, make(ValueKind::Number));
      } else if (isOneOf(attr, {"output", "input", "inputs"})) {
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
    case ValueKind::Method:
      // A bound method has no attributes but dunder ones (judged where they
      // are read): this "method" was a data attribute (`output.logits`,
      // `tracer.result`, `svd(a).Vh`) whose value ivc cannot type.
      if (base.receiver != ValueKind::Envoy) {
        Value m = make(ValueKind::Method, attr, const_cast<Op *>(op));
        m.receiver = ValueKind::Unknown;
        addValue(out, m);
      } else {
        addValue(out, Value::unknown());
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
    case ValueKind::Bool:
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

namespace {

/// Catalogued torch functions whose result is no tensor: shapes, dtype and
/// device objects, flags, counts (`torch.Size([-1]).numel()` is -1).
bool returnsNonTensor(std::string_view q) {
  return isOneOf(q, {"torch.Size", "torch.finfo", "torch.iinfo", "torch.device",
                     "torch.promote_types", "torch.result_type", "torch.can_cast",
                     "torch.is_tensor", "torch.is_storage", "torch.get_default_dtype",
                     "torch.is_grad_enabled", "torch.is_inference_mode_enabled",
                     "torch.broadcast_shapes", "torch.functional.broadcast_shapes",
                     "torch.typename", "torch.no_grad", "torch.enable_grad",
                     "torch.inference_mode", "torch.numel", "torch.is_floating_point",
                     "torch.is_complex", "torch.is_nonzero", "torch.is_same_size",
                     "torch.is_conj", "torch.is_neg"});
}

} // namespace

std::optional<ValueSet> ValueAnalysis::dictEntries(const Op *dict, size_t part) {
  if (!unchanging(dict))
    return std::nullopt;
  ValueSet out;
  for (size_t i = 0; i + 1 < dict->operands.size(); i += 2) {
    if (!dict->operands[i])
      return std::nullopt; // `**spread`
    addAll(out, valuesOf(dict->operands[i + part]));
  }
  return out.empty() ? std::optional<ValueSet>() : out;
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
      if (base.op && base.op->is(OpKind::Dict)) {
        // `METRICS["ld"]`: the value of that key, or of any key.
        std::optional<ValueSet> values = dictEntries(base.op, 1);
        addAll(out, values ? *values : ValueSet{Value::unknown()});
        break;
      }
      if (base.op && (base.op->is(OpKind::Tuple) || base.op->is(OpKind::List)) && index &&
          index->is(OpKind::Int) && unchanging(base.op)) {
        std::optional<int64_t> i = pythonInt(index->text);
        if (i && *i >= 0 && size_t(*i) < base.op->operands.size()) {
          addAll(out, valuesOf(base.op->operands[size_t(*i)]));
          break;
        }
      }
      addValue(out, Value::unknown());
      break;
    case ValueKind::Method:
      // tracer.iter[0:3]; h.shape[0], one dimension of a tensor's shape, is
      // an int (an index that may be a slice, `h.shape[s]`, is a shape);
      // anything else is unknown.
      if (base.receiver == ValueKind::Tracer)
        addValue(out, make(ValueKind::Container, {}, nullptr));
      else if (base.text == "shape" && index && allNumeric(valuesOf(index)) &&
               (base.receiver == ValueKind::Tensor || base.receiver == ValueKind::Activation))
        addValue(out, make(ValueKind::Number));
      else
        addValue(out, Value::unknown());
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
        std::optional<int64_t> cp = pythonInt(op->operand(1)->text);
        if (cp && *cp >= 0 && *cp < 0x80) {
          s += char(*cp);
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
      // A container says which builtin made it: `range` holds nothing.
      addValue(out, make(k, k == ValueKind::Container ? callee.text : std::string_view()));
      break;
    }
    case ValueKind::Qualified:
      // `functools.partial(f, ...)` calls f when called: f, to its callers.
      if (callee.text == "functools.partial" && op->operands.size() >= 2 &&
          !op->operand(1)->is(OpKind::Keyword) && !op->operand(1)->is(OpKind::Starred)) {
        const ValueSet &fs = valuesOf(op->operand(1));
        if (!fs.empty() && llvm::all_of(fs, [](const Value &f) {
              return f.kind == ValueKind::UserFunction || f.kind == ValueKind::Lambda;
            })) {
          addAll(out, fs);
          break;
        }
      }
      // Catalogued torch/numpy/einops functions make tensors, math numbers;
      // anything else (torch.nn.Linear(...), a module's class) is unknown.
      if (catalog_ && catalog_->function(callee.text) && callee.text.substr(0, 5) == "math.")
        addValue(out, make(ValueKind::Number));
      else if (catalog_ && catalog_->function(callee.text) && !returnsNonTensor(callee.text))
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
      bool onTensor =
          callee.receiver == ValueKind::Activation || callee.receiver == ValueKind::Tensor;
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
      } else if (onTensor && (callee.text == "tolist" ||
                              (callee.text == "size" && op->operands.size() == 1))) {
        // Nested lists of Python numbers; a shape, a tuple of them.
        addValue(out, make(ValueKind::Container));
      } else if (onTensor && (isOneOf(callee.text, {"item", "dim", "ndimension", "numel",
                                                     "nelement", "element_size"}) ||
                              (callee.text == "size" && op->operands.size() == 2))) {
        addValue(out, make(ValueKind::Number)); // a Python scalar
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
  if (anyTensor(l) || anyTensor(r))
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
      std::optional<int64_t> n = pythonInt(count->text);
      if (n && *n <= 64) {
        std::string rep;
        for (int64_t i = 0; i < *n; ++i)
          rep += s.text;
        return {knownStr(save(rep))};
      }
    }
    return {make(ValueKind::Str)};
  }
  if (op->text == "%" && lStr)
    return {make(ValueKind::Str)};
  if (allNumeric(l) && allNumeric(r))
    return {make(ValueKind::Number)};
  return {Value::unknown()};
}

// `is` and `in` give a bool; a rich comparison gives what the operands'
// methods return: a tensor of bools for a tensor, a bool for numbers.
ValueSet ValueAnalysis::ofCompare(const Op *op) {
  bool onlyIdentityOrMembership = llvm::all_of(llvm::split(op->text, ','), [](llvm::StringRef o) {
    return isOneOf(o, {"is", "is not", "in", "not in"});
  });
  if (onlyIdentityOrMembership)
    return {make(ValueKind::Bool)};
  bool numeric = true;
  for (const Op *operand : op->operands) {
    const ValueSet &v = valuesOf(operand);
    if (anyTensor(v))
      return {make(ValueKind::Tensor)};
    numeric = numeric && allNumeric(v);
  }
  return {numeric ? make(ValueKind::Bool) : Value::unknown()};
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
  std::vector<const Op *> returns = returnsOf(*function);
  for (const Op *ret : returns) {
    if (ret->operand(0))
      addAll(out, valuesOf(ret->operand(0)));
    else
      addValue(out, make(ValueKind::NoneValue));
  }
  if (returns.empty())
    addValue(out, make(ValueKind::NoneValue));
  ValueSet &slot = returns_[function];
  slot = std::move(out);
  return slot;
}

} // namespace ivc
