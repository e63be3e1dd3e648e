//===- FreeNames.cpp - Which module-level names a runtime's caller supplies ===//
//
// A runtime runs a mediator's body and the definitions it reaches, not the
// module or the function around them. It binds a name of those outer scopes
// the mediator reads but does not bind (a free name) itself when the plan
// says what it is: an
// import (`free_imports`), a function or class (`definitions`), or a pinned
// constant (also a definition): a name bound once outside every mediator to
// literals, displays of them, arithmetic and subscripts of them, imports'
// members, the file's functions and calls of those and of pure builtins with
// constants (`LAYERS = [2, 4]`, `N = len(LAYERS)`, `METRICS = {"ld":
// logit_diff}`, `halve = make_scale(0.5)`), in the module or in the
// function around the trace. Every other free name gets the
// value the runtime's caller passes, whatever the file binds it to: `scale =
// 2` in the file may be -1 there, and `t // scale` then traps. Of such a
// name the analysis relies on nothing but a kind the runtime checks
// (`free_types`: `steering = torch.randn(768)` is a tensor).
//
//===----------------------------------------------------------------------===//
#include "ValueHelpers.h"

#include "ivc/frontend/Unicode.h"
#include "ivc/support/Text.h"

#include "llvm/ADT/DenseSet.h"

#include <cctype>
#include <cstring>

namespace ivc {

using namespace ir;
using namespace values;

namespace {

/// Constants larger than this many ops stay the caller's: a plan carries
/// each pinned constant's source to every mediator that reads it.
constexpr int MaxConstantOps = 4096;

/// Whether `s` is the file's one function or class of that name, which a
/// runtime defines from the plan where a mediator reaches it.
bool definedOnce(const Symbol &s) {
  return s.bindings.size() == 1 && (s.bindings[0].kind == Binding::Kind::Function ||
                                    s.bindings[0].kind == Binding::Kind::Class);
}

} // namespace

bool ValueAnalysis::boundByRuntime(const Symbol &s) {
  // The model's receiver and the tracer; a name spelled like an allowed
  // module or `nnsight`; the first name of a dotted receiver (`self`).
  if (llvm::is_contained(traces_.modelSymbols, &s) || llvm::is_contained(traces_.tracerSymbols, &s))
    return true;
  if (modelAlias(s))
    return true;
  if (s.name == "nnsight" || llvm::is_contained(runtimeModules_, s.name))
    return true;
  return llvm::any_of(traces_.modelExpressions, [&](std::string_view e) {
    return e.substr(0, e.find('.')) == s.name;
  });
}

std::optional<std::string> ValueAnalysis::modelAlias(const Symbol &s) {
  // The one plain name every trace takes the model by (bound, or a global
  // the file never binds).
  std::string_view model;
  for (const Symbol *m : traces_.modelSymbols)
    if (model.empty() || model == m->name)
      model = m->name;
    else
      return std::nullopt;
  for (std::string_view e : traces_.modelExpressions)
    if ((model.empty() || model == e) && e.find('.') == std::string_view::npos)
      model = e;
    else
      return std::nullopt;
  if (s.bindings.size() != 1 || model.empty())
    return std::nullopt;
  const Binding &b = s.bindings[0];
  if (b.kind != Binding::Kind::Assign || !b.path.empty() || !b.value || !b.site ||
      innermostBody(b.site->range.begin.offset))
    return std::nullopt;
  std::vector<std::string_view> segments;
  const Op *o = b.value;
  for (; o && !o->is(OpKind::Name); o = o->operand(0)) {
    // Never a private or special attribute: `model.__class__.__init__`
    // leads to the runtime's own globals.
    if (o->is(OpKind::Attribute) && !o->text.starts_with("_"))
      segments.push_back(o->text);
    else if (o->is(OpKind::Subscript) && o->operand(1) && o->operand(1)->is(OpKind::Int) &&
             o->operand(1)->text.find_first_not_of("0123456789") == std::string_view::npos)
      segments.push_back(o->operand(1)->text);
    else
      return std::nullopt;
  }
  if (!o || o->text != model)
    return std::nullopt;
  if (const Symbol *root = scopes_.resolve(o).symbol;
      root && !llvm::is_contained(traces_.modelSymbols, root))
    return std::nullopt;
  // A submodule, the configuration or one of its values: not an
  // activation, a weight or a method.
  if (!isConfigValue(b.value) &&
      !llvm::all_of(valuesOf(b.value), [](const Value &v) { return v.kind == ValueKind::Envoy; }))
    return std::nullopt;
  std::string path;
  for (auto it = segments.rbegin(); it != segments.rend(); ++it)
    path += (path.empty() ? "" : ".") + std::string(*it);
  return path;
}

bool ValueAnalysis::isConfigValue(const Op *op) {
  if (!op || !op->is(OpKind::Attribute) || op->text.starts_with("_"))
    return false;
  const ValueSet &base = valuesOf(op->operand(0));
  return !base.empty() && llvm::all_of(base, [](const Value &v) {
    return v.kind == ValueKind::Envoy && v.text == "config";
  });
}

std::optional<std::string_view> ValueAnalysis::importedModule(const Symbol &s) {
  std::optional<std::string_view> path;
  for (const Binding &b : s.bindings) {
    if (b.kind != Binding::Kind::Import && b.kind != Binding::Kind::ImportFrom)
      return std::nullopt;
    ValueSet v = ofBinding(b);
    if (v.size() != 1 || v[0].kind != ValueKind::Qualified || v[0].text.empty() ||
        v[0].text.starts_with(".") || (path && *path != v[0].text))
      return std::nullopt; // relative, or two imports under one name
    path = v[0].text;
  }
  return path;
}

/// Whether `s` imports, unambiguously, from a module a runtime may import.
bool ValueAnalysis::allowedImport(const Symbol &s) {
  std::optional<std::string_view> path = importedModule(s);
  return path && llvm::is_contained(runtimeModules_, path->substr(0, path->find('.')));
}

bool ValueAnalysis::constantValue(const Op *op, int depth, int &budget) {
  if (!op || depth > 16 || --budget < 0)
    return false;
  switch (op->kind) {
  case OpKind::Int: case OpKind::Float: case OpKind::Complex: case OpKind::Str:
  case OpKind::Bytes: case OpKind::True: case OpKind::False: case OpKind::None:
    return true;
  case OpKind::Lambda: // `METRICS = {"ld": lambda lg: ...}`: its defaults run here
    return llvm::all_of(op->operands, [&](const Op *o) {
      return !o || !o->is(OpKind::Param) || !o->operand(0) ||
             constantValue(o->operand(0), depth + 1, budget);
    });
  case OpKind::UnaryOp:
    return (op->text == "-" || op->text == "+") && op->operand(0) &&
           (op->operand(0)->is(OpKind::Int) || op->operand(0)->is(OpKind::Float));
  case OpKind::Tuple: case OpKind::List: case OpKind::Set: case OpKind::Dict:
    return llvm::all_of(op->operands,
                        [&](const Op *o) { return constantValue(o, depth + 1, budget); });
  case OpKind::Attribute: { // `torch.relu`, `F.gelu`: a member of an import
    const Op *base = op->operand(0);
    while (base && base->is(OpKind::Attribute))
      base = base->operand(0);
    const Symbol *s = base && base->is(OpKind::Name) ? scopes_.resolve(base).symbol : nullptr;
    return s && outerScope(s->scope) && allowedImport(*s);
  }
  case OpKind::BinaryOp: case OpKind::Subscript: // `64 * 12`, `LAYERS[0]`
    return llvm::all_of(op->operands,
                        [&](const Op *o) { return constantValue(o, depth + 1, budget); });
  case OpKind::Call: { // `halve = make_scale(0.5)`, `N = len(PROMPTS)`: run there
    const Op *callee = op->operand(0);
    if (emptyContainer(op)) // `nnsight.list().save()`
      return true;
    NameResolution r = callee && callee->is(OpKind::Name) ? scopes_.resolve(callee)
                                                           : NameResolution{};
    const Symbol *f = r.symbol;
    bool fileFunction = f && outerScope(f->scope) && f->bindings.size() == 1 &&
                        f->bindings[0].kind == Binding::Kind::Function;
    // `functools.partial(logit_diff, good=5335)`: the file's function, bound.
    bool partial = callee && callee->is(OpKind::Attribute) && callee->text == "partial" &&
                   llvm::any_of(valuesOf(callee), [](const Value &v) {
                     return v.kind == ValueKind::Qualified && v.text == "functools.partial";
                   });
    bool pureBuiltin = r.kind == NameResolution::Kind::Builtin &&
                       isOneOf(callee->text, {"len", "min", "max", "abs", "round", "int", "float",
                                              "str", "bool", "sum", "sorted", "tuple", "list",
                                              "range", "slice", "dict", "set"});
    // `store = defaultdict(list)`: the codec would hand the caller's over
    // as a plain dict.
    bool container = llvm::any_of(valuesOf(callee), [](const Value &v) {
      return v.kind == ValueKind::Qualified &&
             isOneOf(v.text, {"collections.defaultdict", "collections.OrderedDict",
                              "collections.Counter", "collections.deque"});
    });
    // Objects the codec cannot carry: what makesChangeable says, and a
    // compiled pattern.
    bool factory = makesChangeable(callee) ||
                   llvm::any_of(valuesOf(callee), [](const Value &v) {
                     return v.kind == ValueKind::Qualified && v.text == "re.compile";
                   });
    return (fileFunction || pureBuiltin || partial || factory || container) &&
           llvm::all_of(llvm::drop_begin(op->operands), [&](const Op *a) {
             return a && (a->is(OpKind::Keyword) ? constantValue(a->operand(0), depth + 1, budget)
                                                 : constantValue(a, depth + 1, budget));
           });
  }
  case OpKind::Name: {
    NameResolution r = scopes_.resolve(op);
    if (r.kind == NameResolution::Kind::Builtin) // `defaultdict(list)`
      return isOneOf(op->text, {"list", "dict", "set", "int", "float", "str", "tuple"});
    const Symbol *s = r.symbol;
    return s && outerScope(s->scope) &&
           (allowedImport(*s) || definedOnce(*s) ||
            pinnedConstant(*s, depth + 1));
  }
  default:
    return false;
  }
}

const Op *ValueAnalysis::pinnedConstant(const Symbol &s, int depth) {
  if (!outerScope(s.scope) || s.bindings.size() != 1 || depth > 16 ||
      boundByRuntime(s))
    return nullptr;
  const Binding &b = s.bindings[0];
  if (b.kind != Binding::Kind::Assign || !b.path.empty() || !b.site || !b.value)
    return nullptr;
  auto [it, fresh] = pinned_.try_emplace(&s, false);
  if (!fresh)
    return it->second ? b.value : nullptr; // decided, or in progress (a cycle): not pinned
  // Bound by a mediator's own code, but for the trace body's before its
  // invokes (`acts = []`), which nnsight runs before them: they see it.
  uint32_t at = b.site->range.begin.offset;
  if (innermostBody(at) && !inPrelude(at))
    return nullptr;
  int budget = MaxConstantOps;
  bool pinned = constantValue(b.value, depth, budget) && leftAsMade(s);
  pinned_[&s] = pinned;
  return pinned ? b.value : nullptr;
}

bool ValueAnalysis::inPrelude(uint32_t offset) const {
  return llvm::any_of(traces_.preludes, [&](const SourceRange &r) {
    return r.begin.offset <= offset && offset < r.end.offset;
  });
}

std::optional<int64_t> ValueAnalysis::preludeBarrier(const Symbol &s) {
  if (s.bindings.size() != 1 || s.bindings[0].kind != Binding::Kind::Assign ||
      !s.bindings[0].path.empty() || !s.bindings[0].site || !s.bindings[0].value)
    return std::nullopt;
  if (!inPrelude(s.bindings[0].site->range.begin.offset))
    return std::nullopt;
  const Op *call = s.bindings[0].value;
  const Op *callee = call->is(OpKind::Call) ? call->operand(0) : nullptr;
  if (!callee || !callee->is(OpKind::Attribute) || callee->text != "barrier" ||
      call->operands.size() != 2 || !call->operand(1) || !call->operand(1)->is(OpKind::Int))
    return std::nullopt;
  const Op *tracer = callee->operand(0);
  const Symbol *t = tracer && tracer->is(OpKind::Name) ? scopes_.resolve(tracer).symbol : nullptr;
  if (!t || !llvm::is_contained(traces_.tracerSymbols, t))
    return std::nullopt;
  return pythonInt(call->operand(1)->text);
}

bool ValueAnalysis::emptyContainer(const Op *value) {
  if (!value)
    return false;
  if (value->is(OpKind::List) || value->is(OpKind::Dict))
    return value->operands.empty();
  if (!value->is(OpKind::Call) || value->operands.size() != 1 || !value->operand(0))
    return false;
  const Op *callee = value->operand(0);
  if (callee->is(OpKind::Attribute) && callee->text == "save") // `nnsight.list().save()`
    return emptyContainer(callee->operand(0));
  return llvm::any_of(valuesOf(callee), [](const Value &v) {
    return (v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "dict"})) ||
           (v.kind == ValueKind::Qualified && isOneOf(v.text, {"nnsight.list", "nnsight.dict"}));
  });
}

bool ValueAnalysis::fileClass(const Op *op) {
  const Symbol *c = op && op->is(OpKind::Name) ? scopes_.resolve(op).symbol : nullptr;
  return c && outerScope(c->scope) && c->bindings.size() == 1 &&
         c->bindings[0].kind == Binding::Kind::Class;
}

bool ValueAnalysis::makesChangeable(const Op *callee) {
  if (!callee)
    return false;
  if (fileClass(callee) || (callee->is(OpKind::Attribute) && fileClass(callee->operand(0))))
    return true;
  return llvm::any_of(valuesOf(callee), [](const Value &v) {
    return v.kind == ValueKind::Qualified &&
           isOneOf(v.text,
                   {"collections.namedtuple", "typing.NamedTuple", "types.SimpleNamespace"});
  });
}

bool ValueAnalysis::mayChange(const Op *value, int depth) {
  if (!value || depth > 16)
    return true;
  switch (value->kind) {
  case OpKind::Tuple:
    return llvm::any_of(value->operands, [&](const Op *o) { return mayChange(o, depth + 1); });
  case OpKind::BinaryOp: // `[0] * n`, `BASE + [5]`: a new list
    return llvm::any_of(value->operands, [&](const Op *o) {
      if (const Symbol *s = o && o->is(OpKind::Name) ? scopes_.resolve(o).symbol : nullptr)
        return s->bindings.size() == 1 && makesContainer(s->bindings[0].value);
      return makesContainer(o) || (o && o->is(OpKind::BinaryOp) && mayChange(o, depth + 1));
    });
  case OpKind::Call: { // an instance, or an empty container to fill
    const Op *callee = value->operand(0);
    return makesChangeable(callee) || emptyContainer(value) ||
           llvm::any_of(valuesOf(callee), [](const Value &v) {
             return (v.kind == ValueKind::Builtin && isOneOf(v.text, {"list", "dict", "set"})) ||
                    (v.kind == ValueKind::Qualified && v.text.starts_with("collections."));
           });
  }
  default: // a number, a string, a name, an element (`LAYERS[0]`), a function
    return makesContainer(value);
  }
}

namespace {

bool identifierByte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80);
}

/// Where `text` spells `word` as a whole identifier. (memmem: the string's
/// find stops at each occurrence of the word's first character, `_` or `e`
/// in most of a Python file.)
std::vector<uint32_t> wholeWords(std::string_view text, std::string_view word) {
  std::vector<uint32_t> found;
  for (const char *p = text.data(), *end = text.data() + text.size();;) {
    p = static_cast<const char *>(memmem(p, size_t(end - p), word.data(), word.size()));
    if (!p)
      break;
    size_t at = size_t(p - text.data());
    ++p;
    size_t after = at + word.size();
    if (!(at > 0 && identifierByte(text[at - 1])) &&
        !(after < text.size() && identifierByte(text[after])))
      found.push_back(uint32_t(at));
  }
  return found;
}

} // namespace

std::vector<uint32_t> ValueAnalysis::spellingsOf(std::string_view name) {
  const std::string &text = source_.text();
  // (A name spelled with other than ASCII is NFKC's: `ＬAYERS` is LAYERS to
  // Python. Such a file is indexed, with the spellings normalized.)
  if (!asciiText_)
    asciiText_ = isAscii(text);
  if (!spellingsMade_ && scansLeft_ > 0 && *asciiText_) { // a few names: a search each
    --scansLeft_;
    return wholeWords(text, name);
  }
  if (!spellingsMade_) { // many: one pass over the text, not one per name
    spellingsMade_ = true;
    for (size_t at = 0; at < text.size();) {
      if (!identifierByte(text[at])) {
        ++at;
        continue;
      }
      size_t end = at;
      while (end < text.size() && identifierByte(text[end]))
        ++end;
      std::string_view run(text.data() + at, end - at);
      std::string normalized = isAscii(run) ? std::string() : normalizeIdentifier(run);
      spellings_[normalized.empty() ? llvm::StringRef(run.data(), run.size())
                                    : llvm::StringRef(normalized)]
          .push_back(uint32_t(at));
      at = end;
    }
  }
  auto it = spellings_.find(llvm::StringRef(name.data(), name.size()));
  return it == spellings_.end() ? std::vector<uint32_t>() : it->second;
}

bool ValueAnalysis::reachesModuleNamesUnspelled() {
  if (reachesModuleNames_)
    return *reachesModuleNames_;
  // (In a mediator, the analysis judges such code.) getattr and setattr
  // need the module object, which only these give.
  const std::string &text = source_.text();
  auto next = [&](uint32_t at, std::string_view word) {
    size_t after = text.find_first_not_of(" \t", at + word.size());
    return after == std::string::npos ? '\0' : text[after];
  };
  // Builtins, not attributes (`model.eval()`); `vars()` but not
  // `vars(args)`; `sys.modules` but not `model.modules()`; `import
  // __main__` but not `if __name__ == "__main__"`.
  auto reaches = [&](std::string_view word) {
    bool builtin = isOneOf(word, {"globals", "locals", "vars", "__import__", "exec", "eval"});
    return llvm::any_of(wholeWords(text, word), [&](uint32_t at) {
      char before = at > 0 ? text[at - 1] : '\0';
      if (innermostBody(at) || (builtin && before == '.'))
        return false;
      if (word == "vars")
        return text.compare(at + word.size(), 2, "()") == 0;
      if (word == "__main__")
        return before != '"' && before != '\'';
      return word != "modules" || next(at, word) != '(';
    });
  };
  reachesModuleNames_ = llvm::any_of(
      std::initializer_list<std::string_view>{"globals", "locals", "vars", "__import__", "exec",
                                              "eval", "__dict__", "__main__", "modules",
                                              "import_module"},
      reaches);
  return *reachesModuleNames_;
}

bool ValueAnalysis::leftAsMade(const Symbol &s) {
  // Made again for each mediator, a value must be what outer code left:
  // `probe = Probe(); probe.fit(...)`, `train(probe)` or `prompts.append(p)`
  // changed it there. Outer code a trace cannot reach is not even parsed, so
  // the file's text decides: the name may be spelled in its own binding, in
  // mediators' bodies, in their traces' headers (`model.trace(prompts)`),
  // where only a value a mediator reads reads it (`n = len(LAYERS)`), inside
  // a function the analysis read it in, and after the last trace when every
  // trace is a top-level statement (run once); nowhere else, not in a
  // comment or a string either.
  const Binding &b = s.bindings[0];
  if (!mayChange(b.value))
    return true;
  uint32_t lastTraceEnd = 0;
  for (const SourceRange &r : traces_.mediatorBodies)
    lastTraceEnd = std::max(lastTraceEnd, r.end.offset);
  // A trace in a loop or a function may run again, after what follows it.
  if (!traces_.tracesRunOnce)
    lastTraceEnd = UINT32_MAX;
  // A list, dict or set only read (`len(LAYERS)`) in the value of a name a
  // mediator reads (`n_layers = len(LAYERS)`): a statement `ivc check`
  // parses too, as it parses no statement that no trace reaches.
  bool display = b.value->is(OpKind::List) || b.value->is(OpKind::Dict) ||
                 b.value->is(OpKind::Set);
  auto inValueMediatorsRead = [&](const Op *read) {
    const Op *stmt = read;
    for (int depth = 0; stmt && !stmt->is(OpKind::Assign) && depth < 64; ++depth)
      stmt = uses_.userOf(stmt);
    if (!stmt || !stmt->is(OpKind::Assign))
      return false;
    for (size_t t = 0; t + 1 < stmt->operands.size(); ++t) {
      const Op *target = stmt->operand(t);
      const Symbol *bound = target && target->is(OpKind::Name) ? scopes_.resolve(target).symbol
                                                               : nullptr;
      if (bound && llvm::any_of(uses_.readsOf(bound), [&](const Op *r) {
            return innermostBody(r->range.begin.offset) != nullptr;
          }))
        return true;
    }
    return false;
  };
  llvm::DenseSet<uint32_t> readsAllowed;
  for (const Op *read : uses_.readsOf(&s)) {
    if (display && onlyRead(read, b.value->kind) && inValueMediatorsRead(read))
      readsAllowed.insert(read->range.begin.offset);
    for (const Scope *at = scopes_.enclosingScope(read); at; at = at->parent)
      if (at->kind == ScopeKind::Function && !outerScope(at)) {
        readsAllowed.insert(read->range.begin.offset);
        break;
      }
  }
  const Op *statement = uses_.userOf(b.site);
  SourceRange own = statement ? statement->range : b.site->range;
  auto header = [&](uint32_t offset) {
    return llvm::any_of(traces_.traceHeaders,
                        [&](const SourceRange &r) { return r.contains(offset); });
  };
  for (uint32_t offset : spellingsOf(s.name))
    if (!own.contains(offset) && offset <= lastTraceEnd && !readsAllowed.contains(offset) &&
        !innermostBody(offset) && !header(offset))
      return false;
  return !reachesModuleNamesUnspelled();
}

const char *freeTypeName(ValueKind k) {
  switch (k) {
  case ValueKind::Tensor: return "tensor";
  case ValueKind::Number: return "number";
  case ValueKind::Str: return "str";
  case ValueKind::Bool: return "bool";
  case ValueKind::NoneValue: return "none";
  default: return nullptr;
  }
}

bool ValueAnalysis::readsModel(const Op *op, int depth) {
  if (!op || depth > 32)
    return false;
  if (op->is(OpKind::Name)) {
    const Symbol *s = scopes_.resolve(op).symbol;
    return s && llvm::is_contained(traces_.modelSymbols, s);
  }
  return llvm::any_of(op->operands, [&](const Op *o) { return readsModel(o, depth + 1); });
}

std::optional<ValueKind> ValueAnalysis::callerKind(const Symbol &s) {
  auto [it, fresh] = callerKinds_.try_emplace(&s, std::nullopt);
  if (!fresh)
    return it->second;
  if (std::optional<CallerAssumption> a = assumed(s))
    return callerKinds_[&s] = *a == CallerAssumption::SmallNumber ? std::optional(ValueKind::Number)
                              : *a == CallerAssumption::SmallTensor ? std::optional(ValueKind::Tensor)
                                                                    : std::nullopt;
  std::optional<ValueKind> kind;
  for (const Binding &b : s.bindings) {
    bool loop = b.kind == Binding::Kind::Loop; // `for head in range(12)`: a number
    if ((b.kind != Binding::Kind::Assign && !loop) || !b.value)
      return std::nullopt;
    for (const Value &v : loop             ? elementOf(b.value, b.path)
                          : b.path.empty() ? valuesOf(b.value)
                                           : elementAt(valuesOf(b.value), b.path)) {
      // (An activation may be a block's tuple of outputs: no kind. What the
      // model's other attributes make, `model.tokenizer(...)`, ivc types
      // only roughly: a tensor from there may be a list or an int.)
      if (!freeTypeName(v.kind) || (kind && *kind != v.kind) ||
          (v.kind == ValueKind::Tensor && readsModel(b.value)))
        return std::nullopt;
      kind = v.kind;
    }
  }
  callerKinds_[&s] = kind;
  return kind;
}

void ValueAnalysis::assumeCallerKinds(std::map<std::string, CallerAssumption> kinds,
                                      double most) {
  assumed_ = std::move(kinds);
  assumedMost_ = most;
  callerKinds_.clear();
}

std::optional<CallerAssumption> ValueAnalysis::assumed(const Symbol &s) {
  auto it = assumed_.find(std::string(s.name));
  if (it == assumed_.end() || !outerScope(s.scope))
    return std::nullopt;
  // Bound nowhere a runtime runs: not in a body (another invoke's value, or
  // the body's own), not through `global` or `nonlocal` in a function; and
  // not by the file to what no number or tensor is (`cfg = Config(...)`):
  // such a guard would fail every time.
  auto plausible = [&](const Binding &b) {
    if (b.kind == Binding::Kind::Param || b.kind == Binding::Kind::Import ||
        b.kind == Binding::Kind::ImportFrom)
      return b.kind == Binding::Kind::Param;
    ValueSet vs = b.kind == Binding::Kind::Loop && b.value ? elementOf(b.value, b.path)
                  : b.value && b.path.empty()             ? valuesOf(b.value)
                                                          : ValueSet{Value::unknown()};
    return llvm::all_of(vs, [](const Value &v) {
      // (The model's attributes: `n_heads = model.config.n_head`; an
      // attribute of what ivc cannot type, which may be data: `args.head`.)
      return v.kind == ValueKind::Unknown || v.kind == ValueKind::Number ||
             v.kind == ValueKind::Tensor || v.kind == ValueKind::Envoy ||
             (v.kind == ValueKind::Method && v.receiver == ValueKind::Unknown);
    });
  };
  // Nor by an assignment expression: one in a definition's header (`def
  // f(x=(k := 2**30))`) runs where the plan runs that definition, after the
  // runtime checked the caller's value.
  bool outside = llvm::all_of(s.bindings, [&](const Binding &b) {
    return b.site && b.kind != Binding::Kind::Walrus &&
           !innermostBody(b.site->range.begin.offset) &&
           (b.kind == Binding::Kind::Param || scopes_.enclosingScope(b.site) == s.scope) &&
           plausible(b);
  });
  return outside ? std::optional(it->second) : std::nullopt;
}

std::optional<CallerAssumption> ValueAnalysis::callerAssumption(const Op *nameRead) {
  if (assumed_.empty() || !nameRead || !nameRead->is(OpKind::Name))
    return std::nullopt;
  NameResolution r = scopes_.resolve(nameRead);
  if (r.symbol)
    return fromCaller(nameRead) ? assumed(*r.symbol) : std::nullopt;
  // Bound nowhere in the file (`steer_vec`): only the caller binds it, unless
  // a star import may.
  auto it = assumed_.find(std::string(nameRead->text));
  if (r.kind != NameResolution::Kind::Undefined || it == assumed_.end() ||
      !scopes_.moduleScope()->starImports.empty())
    return std::nullopt;
  return it->second;
}

std::optional<double> ValueAnalysis::callerNumberBound(const Op *nameRead) {
  return callerAssumption(nameRead) == CallerAssumption::SmallNumber
             ? std::optional<double>(assumedMost_)
             : std::nullopt;
}

std::optional<double> ValueAnalysis::callerTensorBound(const Op *nameRead) {
  return callerAssumption(nameRead) == CallerAssumption::SmallTensor
             ? std::optional<double>(assumedMost_)
             : std::nullopt;
}

void ValueAnalysis::sortBodies() {
  if (!bodiesSorted_) {
    bodiesSorted_ = true;
    bodies_ = traces_.mediatorBodies;
    // Outer bodies before the bodies they hold.
    std::sort(bodies_.begin(), bodies_.end(), [](const SourceRange &a, const SourceRange &b) {
      return a.begin.offset != b.begin.offset ? a.begin.offset < b.begin.offset
                                              : a.end.offset > b.end.offset;
    });
    std::vector<int> open;
    for (size_t i = 0; i < bodies_.size(); ++i) {
      while (!open.empty() && !bodies_[size_t(open.back())].contains(bodies_[i].begin.offset))
        open.pop_back();
      enclosingBody_.push_back(open.empty() ? -1 : open.back());
      open.push_back(int(i));
    }
  }
}

const SourceRange *ValueAnalysis::innermostBody(uint32_t offset) {
  sortBodies();
  // The last body to begin at or before `offset` holds it, or one of its
  // enclosing bodies does.
  auto it = std::upper_bound(bodies_.begin(), bodies_.end(), offset,
                             [](uint32_t o, const SourceRange &r) { return o < r.begin.offset; });
  for (int i = int(it - bodies_.begin()) - 1; i >= 0; i = enclosingBody_[size_t(i)])
    if (bodies_[size_t(i)].contains(offset))
      return &bodies_[size_t(i)];
  return nullptr;
}

bool ValueAnalysis::outerScope(const Scope *scope) {
  if (!scope || scope->kind == ScopeKind::Module)
    return scope != nullptr;
  if (scope->kind != ScopeKind::Function || !scope->owner)
    return false;
  auto [it, fresh] = outerScopes_.try_emplace(scope, false);
  if (fresh) {
    sortBodies();
    const SourceRange &def = scope->owner->range;
    auto first = std::lower_bound(
        bodies_.begin(), bodies_.end(), def.begin.offset,
        [](const SourceRange &r, uint32_t o) { return r.begin.offset < o; });
    it->second = first != bodies_.end() && def.contains(first->begin.offset);
  }
  return it->second;
}

bool ValueAnalysis::boundWithin(const Symbol &s, const SourceRange &range) {
  auto [it, fresh] = bindingOffsets_.try_emplace(&s);
  std::vector<uint32_t> &offsets = it->second;
  if (fresh) {
    for (const Binding &b : s.bindings)
      if (b.site)
        offsets.push_back(b.site->range.begin.offset);
    std::sort(offsets.begin(), offsets.end());
  }
  auto first = std::lower_bound(offsets.begin(), offsets.end(), range.begin.offset);
  return first != offsets.end() && range.contains(*first);
}

bool ValueAnalysis::fromCaller(const Op *nameRead) {
  if (!nameRead || !nameRead->is(OpKind::Name) || nameRead->index >= module_.numOps())
    return false;
  if (fromCaller_.empty())
    fromCaller_.assign(module_.numOps(), -1);
  int8_t &known = fromCaller_[nameRead->index];
  if (known < 0)
    known = decideFromCaller(nameRead);
  return known;
}

/// Whether `op` is evaluated by a def or class statement (a default, a
/// decorator, a base): where the plan runs that definition.
static bool headerOfDefinition(const Op *op) {
  const Region *r = op->parentRegion;
  if (!r)
    return false;
  // A region's ops are in the order they were lowered, which `index` keeps.
  auto it = std::lower_bound(r->ops.begin(), r->ops.end(), op->index,
                             [](const Op *o, uint32_t i) { return o->index < i; });
  if (it == r->ops.end() || *it != op)
    return false;
  for (; it != r->ops.end(); ++it)
    if ((*it)->cls() == OpClass::Stmt)
      return (*it)->is(OpKind::FunctionDef) || (*it)->is(OpKind::ClassDef);
  return false;
}

bool ValueAnalysis::decideFromCaller(const Op *nameRead) {
  NameResolution r = scopes_.resolve(nameRead);
  const Symbol *s = r.symbol;
  if (!s || !outerScope(s->scope) || boundByRuntime(*s))
    return false; // the runtime's own binding (a module, the model), not the caller's
  // Where the read runs: in a function (a definition a plan carries, run for
  // whichever mediator reaches it), or in a mediator's own statements, or in
  // outer code a runtime never runs. Comprehensions run where they are.
  bool inFunction = false;
  for (const Scope *at = scopes_.enclosingScope(nameRead); at && at != s->scope && !inFunction;
       at = at->parent)
    inFunction = !outerScope(at) && (at->kind == ScopeKind::Function ||
                                     at->kind == ScopeKind::Lambda || at->kind == ScopeKind::Class);
  if (!inFunction) {
    const SourceRange *innermost = innermostBody(nameRead->range.begin.offset);
    if (!innermost && !headerOfDefinition(nameRead))
      return false; // outer code: no runtime runs it
    if (innermost && boundWithin(*s, *innermost))
      return false; // the mediator's own name
  }
  auto [it, fresh] = replayed_.try_emplace(s, false);
  if (fresh)
    it->second = pinnedConstant(*s) || importedModule(*s) || boundToDefinitions(*s);
  return !it->second;
}

bool ValueAnalysis::boundToDefinitions(const Symbol &s) {
  return !s.bindings.empty() && llvm::all_of(s.bindings, [](const Binding &b) {
    return b.kind == Binding::Kind::Function || b.kind == Binding::Kind::Class ||
           (b.kind == Binding::Kind::Assign && b.path.empty() && b.value &&
            b.value->is(OpKind::Lambda));
  });
}

} // namespace ivc
