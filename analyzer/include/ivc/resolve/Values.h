//===- Values.h - What each expression can refer to ----------------------===//
//
// A small abstract interpretation over the IR: every expression evaluates to
// a set of abstract values (a builtin, a module or one of its members by
// qualified name, a function or class of this file, the model or one of its
// submodules by path, the tracer, a tensor, a constant string, ...). Names
// follow their bindings (aliases, tuple unpacking, imports, loops over module
// lists), so `fn = eval; fn(x)` calls the builtin eval and
// `run = subprocess.run` refers to `subprocess.run`. Values are computed on
// demand, memoized per op, and cycle-safe.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RESOLVE_VALUES_H
#define IVC_RESOLVE_VALUES_H

#include "ivc/resolve/Scopes.h"
#include "ivc/resolve/Uses.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Allocator.h"

#include <deque>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ivc {

struct Manifest;
struct ManifestBinding;
class OpCatalog;

enum class ValueKind : uint8_t {
  Unknown,      // anything (a parameter, the result of an unknown call, ...)
  Builtin,      // text: the builtin's name
  Qualified,    // text: dotted name rooted at a module ("torch.nn.functional.relu")
  UserFunction, // op: the def
  UserClass,    // op: the class
  Lambda,       // op: the lambda
  Envoy,        // text: path from the model ("" for the model, "transformer.h.5")
  Activation,   // text: path; op: the access (`.output`, `.input`, `.inputs`)
  Tracer,       // the trace's tracer
  Method,       // text: method name; receiver kind in `receiver`
  Tensor,       // a tensor (result of a catalogued op, arithmetic on activations)
  Str,          // text: the value when `known`
  Number,
  Bool,
  NoneValue,
  Container,    // list, tuple, dict or set; op: the display when there is one;
                // text: the builtin that made it ("range")
  Instance,     // op: the user class it instantiates
};

/// A kind a runtime checks a caller's value for (a plan's `guards`).
enum class CallerAssumption : uint8_t {
  SmallNumber,    // an int or a float of bounded magnitude
  NumberOrTensor, // an int, a float or a tensor: no sequence
  SmallTensor,    // a tensor whose dimensions (an empty one counted as 1)
                  // multiply to a bounded number: its values are not bounded
};

struct Value {
  ValueKind kind = ValueKind::Unknown;
  ValueKind receiver = ValueKind::Unknown; // for Method: what it is bound to
  bool known = false;                      // for Str: `text` is the exact value
  std::string_view text;
  ir::Op *op = nullptr;
  const ManifestBinding *manifest = nullptr; // where a manifest supplied it

  static Value unknown() { return {}; }
};

using ValueSet = llvm::SmallVector<Value, 2>;

/// Names of the model and tracer in a trace region, so that `model.x.output`
/// is an activation wherever the receiver's binding is read.
struct TraceBindings {
  std::vector<const Symbol *> modelSymbols;
  std::vector<std::string_view> modelExpressions; // receivers that are not names: "self.lm"
  std::vector<const Symbol *> tracerSymbols;
  /// The `with ... as tracer:` lines, which bind the tracers.
  std::vector<SourceRange> traceHeaders;
  /// The statements of every mediator's body (see fromCaller).
  std::vector<SourceRange> mediatorBodies;
  /// Of each trace with invokes, its body up to the first invoke: nnsight
  /// runs it before them, and they see what it binds.
  std::vector<SourceRange> preludes;
  /// Every trace is a top-level statement of the module (none in a loop or
  /// a function, which may run it again).
  bool tracesRunOnce = true;
};

class ValueAnalysis {
public:
  /// `runtimeModules`: module names a runtime imports for a free name of
  /// that name (the policy's import allowlist).
  ValueAnalysis(const ir::Module &module, const SourceFile &source, const ScopeTree &scopes,
                const TraceBindings &traces, const Manifest *manifest,
                const std::vector<std::string> &traceMethods,
                const std::vector<std::string> &runtimeModules,
                const OpCatalog *catalog = nullptr);

  /// The values `op` can evaluate to.
  const ValueSet &valuesOf(const ir::Op *op);
  /// The values a name read resolves to (through its bindings).
  const ScopeTree &scopes() const { return scopes_; }
  /// The values of one element produced by iterating `iterable`, at `path`.
  ValueSet elementOf(const ir::Op *iterable, llvm::ArrayRef<uint8_t> path);
  /// The values at `path` inside tuple or list displays among `values`.
  ValueSet elementAt(const ValueSet &values, llvm::ArrayRef<uint8_t> path);

  std::string_view save(std::string_view s);
  /// Which op uses each op, and where each name is read.
  UseIndex &uses() { return uses_; }
  /// Whether a tuple, list, set or dict display's object keeps the items it
  /// was made with: a tuple, or a display that only reads and iterations
  /// reach (`fns = [f, g]` where no read of `fns` may change or pass it on).
  bool unchanging(const ir::Op *display);
  /// Whether the value a read of a module-level name sees is one a runtime's
  /// caller supplies: a free name (read in a mediator that does not bind it,
  /// or in a function) that the runtime does not bind itself from the plan
  /// (an import, a definition, a pinned constant). The file's bindings of
  /// such a name say nothing of that value (`scale = 2` in the file, -1 from
  /// the caller), so nothing may be concluded from them.
  bool fromCaller(const ir::Op *nameRead);
  /// The one kind every value the file binds a caller-supplied name to has,
  /// when a runtime can check a value for it (a tensor, a number, a string,
  /// a bool, None): the plan's `free_types`, which the runtime enforces, so
  /// the analysis may rely on that kind and nothing more.
  std::optional<ValueKind> callerKind(const Symbol &s);
  /// Assumes kinds of the caller's values: a plan's `guards`, which a
  /// runtime checks before running a mediator FAST (engine/CallerGuards.cpp).
  /// A name qualifies when the file fixes no kind for it and binds it only
  /// in its own scope, outside every mediator: then every read the caller
  /// supplies sees that value.
  void assumeCallerKinds(std::map<std::string, CallerAssumption> kinds, double most);
  /// What is assumed of the value a read of a caller's name sees, if anything.
  std::optional<CallerAssumption> callerAssumption(const ir::Op *nameRead);
  /// The most a read of a caller's name assumed a SmallNumber may be.
  std::optional<double> callerNumberBound(const ir::Op *nameRead);
  /// The most the product of the dimensions of a caller's tensor assumed a
  /// SmallTensor may be.
  std::optional<double> callerTensorBound(const ir::Op *nameRead);
  /// The value of a module-level name that a runtime binds itself from the
  /// plan: its one binding, outside every mediator (or in a trace's body
  /// before its invokes, which nnsight runs first), to a constant (literals,
  /// imports' members, the file's functions and classes, other such names,
  /// and displays of those). Null for any other name.
  const ir::Op *pinnedConstant(const Symbol &s, int depth = 0);
  /// n, when `s` is bound once, in a trace's body before its invokes, to
  /// `tracer.barrier(n)` with a constant n.
  std::optional<int64_t> preludeBarrier(const Symbol &s);
  /// Whether a pinned constant's value makes an empty list or dict (`[]`,
  /// `dict()`, `nnsight.list().save()`).
  bool emptyContainer(const ir::Op *value);
  /// What a module-level name bound by import statements alone imports, when
  /// every one imports the same (`numpy` for `import numpy as np`,
  /// `torch.zeros` for `from torch import zeros`): a runtime binds it itself.
  std::optional<std::string_view> importedModule(const Symbol &s);
  /// Whether a runtime runs none of `scope`'s code, so that its names are
  /// free names of the code it runs: the module, or a function a mediator's
  /// body lies in (`def run(ids): scale = 2; with model.trace(ids): ...`
  /// runs the body, and `scale` is the caller's unless the plan pins it).
  bool outerScope(const Scope *scope);
  /// Whether every binding of `s` is a def, a class or `name = lambda ...`:
  /// what a plan's definitions bind, under that name.
  static bool boundToDefinitions(const Symbol &s);
  /// Names a runtime binds itself: the receiver, the tracer, modules by
  /// their own names, `nnsight`, names for parts of the model.
  bool boundByRuntime(const Symbol &s);
  /// The path from the model that `s` names (`block = model.transformer.h[1]`:
  /// "transformer.h.1", `n = model.config.n_layer`: "config.n_layer"), when
  /// it is bound once, outside every body, to a chain of attributes and
  /// constant indices of a submodule or a configuration value, rooted at the
  /// one name every trace of the file takes the model by. A runtime binds
  /// such a name from the model it runs (a plan's `model_aliases`).
  std::optional<std::string> modelAlias(const Symbol &s);
  /// Whether `op` reads a value of the model's configuration
  /// (`model.config.n_layer`, `cfg.n_head` of `cfg = model.config`): a
  /// number the model, not the caller, chose.
  bool isConfigValue(const ir::Op *op);
  /// Whether `s` has a binding inside `range` (a mediator's body).
  bool boundWithin(const Symbol &s, const SourceRange &range);
  /// What every call of the def `param` belongs to passes it (`out`): the
  /// argument by position or name, a `*xs` or `**kw` it unpacks, or the
  /// default (null without one). False when the function is used other
  /// than by direct calls of its one name: its calls are out of sight.
  bool argumentsOf(const ir::Op &param, std::vector<const ir::Op *> &out);
  /// The values a function or lambda of this module returns.
  const ValueSet &returnValues(const ir::Op *function);

private:
  ValueSet compute(const ir::Op *op);
  ValueSet ofName(const ir::Op *op);
  ValueSet ofBinding(const Binding &b);
  ValueSet ofAttribute(const ir::Op *op);
  ValueSet ofSubscript(const ir::Op *op);
  /// The keys (`part` 0) or values (1) of an unchanging dict display, or
  /// nothing when it has a `**` splat.
  std::optional<ValueSet> dictEntries(const ir::Op *dict, size_t part);
  ValueSet ofCall(const ir::Op *op);
  ValueSet ofBinary(const ir::Op *op);
  ValueSet ofCompare(const ir::Op *op);
  ValueSet ofManifest(const ManifestBinding &b);
  bool isModelExpression(const ir::Op *op) const;
  /// Whether `b` binds `s` to a reshape of itself (`q = q.view(...)`).
  bool reshapesItself(const Binding &b, const Symbol *s);
  bool onlyRead(const ir::Op *use, ir::OpKind container);
  /// The innermost mediator body holding `offset`, or null.
  const SourceRange *innermostBody(uint32_t offset);
  void sortBodies();
  bool constantValue(const ir::Op *op, int depth, int &budget);
  /// Whether `op` names a class the file defines once at its top.
  bool fileClass(const ir::Op *op);
  /// Whether calling `callee` makes an object outer code may change after
  /// making it, which a plan makes again for each mediator: an instance of
  /// the file's class (`HeadCfg(8)`, `HeadCfg.tiny()`), a namedtuple class
  /// or a SimpleNamespace.
  bool makesChangeable(const ir::Op *callee);
  /// Whether a pinned changeable object (makesChangeable) is read only where
  /// mediators run (no outer code changed it after it was made).
  bool leftAsMade(const Symbol &s);
  /// Whether a constant's value holds something code can change in place
  /// (a list, dict or set, an instance).
  bool mayChange(const ir::Op *value, int depth = 0);
  /// Whether `op` reads the model's receiver anywhere in its operands.
  bool readsModel(const ir::Op *op, int depth = 0);
  bool allowedImport(const Symbol &s);
  bool decideFromCaller(const ir::Op *nameRead);
  /// What assumeCallerKinds assumes of `s`, when it qualifies.
  std::optional<CallerAssumption> assumed(const Symbol &s);

  const ir::Module &module_;
  const SourceFile &source_;
  const ScopeTree &scopes_;
  const TraceBindings &traces_;
  const Manifest *manifest_;
  const std::vector<std::string> &traceMethods_;
  const std::vector<std::string> &runtimeModules_;
  const OpCatalog *catalog_; // what calls produce tensors; null: none do
  std::vector<int32_t> slot_; // by op index: -1 not computed, -2 in progress, else index
  // Containers whose elements never move: callers hold references to sets
  // while asking for more.
  std::deque<ValueSet> memo_;
  std::unordered_map<const ir::Op *, ValueSet> returns_;
  /// The union of a symbol's bindings, shared by all its reads (see ofName);
  /// ofName returns copies, so no reference into it is held.
  llvm::DenseMap<const Symbol *, ValueSet> symbolValues_;
  /// How many times a cycle was cut (an op or function still in progress was
  /// asked for): a value computed while this grew depends on where the
  /// computation started, so it is not shared.
  uint64_t cuts_ = 0;
  /// valuesOf calls in progress, bounded by MaxDepth.
  unsigned depth_ = 0;
  static constexpr unsigned MaxDepth = 400;
  llvm::BumpPtrAllocator arena_;
  UseIndex uses_;
  llvm::DenseMap<const ir::Op *, bool> unchanging_;
  llvm::DenseMap<const Symbol *, bool> replayed_; // every binding bound by the runtime
  llvm::DenseMap<const Symbol *, bool> pinned_;
  /// Where the file's text spells each identifier (for leftAsMade): the
  /// first few names are looked for in the text, then an index of every
  /// identifier is made once.
  llvm::StringMap<std::vector<uint32_t>> spellings_;
  bool spellingsMade_ = false;
  int scansLeft_ = 16;
  std::optional<bool> reachesModuleNames_; // see reachesModuleNamesUnspelled
  std::optional<bool> asciiText_;
  std::vector<uint32_t> spellingsOf(std::string_view name);
  /// Whether code outside the mediators may reach module names without
  /// spelling them (`globals()`, `sys.modules`, text it runs): then any
  /// module list or dict may have changed before a trace.
  bool reachesModuleNamesUnspelled();
  /// Whether `offset` lies in a trace's body before its first invoke.
  bool inPrelude(uint32_t offset) const;
  llvm::DenseMap<const Scope *, bool> outerScopes_;
  llvm::DenseMap<const Symbol *, std::optional<ValueKind>> callerKinds_;
  std::vector<int8_t> fromCaller_; // by op index: -1 not decided yet
  std::map<std::string, CallerAssumption> assumed_;
  double assumedMost_ = 0;
  // Built on first use: notebook exports have thousands of mediators and
  // names bound in each, read in each.
  std::vector<SourceRange> bodies_; // by where they begin
  std::vector<int> enclosingBody_;  // each body's innermost enclosing body, or -1
  bool bodiesSorted_ = false;
  llvm::DenseMap<const Symbol *, std::vector<uint32_t>> bindingOffsets_; // sorted
};

/// How a plan's `free_types` names a kind a runtime checks a caller's value
/// for (`tensor`, `number`, `str`, `bool`, `none`), or null for another.
const char *freeTypeName(ValueKind k);

/// Appends `v` to `set` unless an equal value is there (and caps the set).
void addValue(ValueSet &set, const Value &v);

/// Tensor methods that return a view sharing the receiver's storage.
bool isViewMethod(std::string_view method);

} // namespace ivc

#endif
