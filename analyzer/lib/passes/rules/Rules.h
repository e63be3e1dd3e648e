//===- Rules.h - The classifier's rules (internal) -----------------------===//
//
// The classifier walks a mediator's effective code once and hands each op to
// the rule for its kind. A rule either confirms the op (reports nothing: it is
// FAST-compatible) or reports why it is not: an ISOLATE remark or a REJECT
// error. Every op kind has a rule; a kind without one is ISOLATE by default.
// Rules for one concern live in one file (References, Calls, ModuleValues,
// DynamicLookup, Formatting, UnsafeArguments, IntegerDivision, Subscripts,
// Statements, and Cost with the files CostModel.h lists); docs/diagnostics
// has one page per diagnostic they emit.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_PASSES_RULES_RULES_H
#define IVC_LIB_PASSES_RULES_RULES_H

#include "ivc/passes/Pass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <initializer_list>
#include <string_view>

namespace ivc::rules {

/// What the rules work out once per analysis, for every mediator: a
/// notebook export binds `hidden` in each of hundreds of trace blocks, and
/// following every binding at every read would cost their square.
/// Binding sites of a file's model and tracer names, with the name and
/// which of the two it is.
using TraceNameSites =
    llvm::DenseMap<const ir::Op *, std::pair<std::string_view, std::string_view>>;

struct RuleMemo {
  /// Whether a name may hold a long range (mayBeLongRange), by its symbol;
  /// [1] for `evidently`.
  llvm::DenseMap<const Symbol *, bool> longRangeNames[2];
  /// By file (References.cpp, checkTraceNameBindings).
  llvm::DenseMap<const ModuleContext *, TraceNameSites> traceNameSites;
  /// The shapes of tensors the cost rules found (none: no shape), by op
  /// (TensorCost.cpp).
  llvm::DenseMap<const ir::Op *, std::optional<std::vector<double>>> shapes;
};

struct RuleContext {
  MediatorContext &m;
  const CodeUnit &unit;
  ValueAnalysis &values;
  /// The ops the unit passes as call arguments: what receives a function
  /// (map, a sort key, a defaultdict factory, ...) may call it.
  const llvm::DenseSet<const ir::Op *> &passed;
  /// The ops of the unit's annotations (parameters, returns, `x: T = ...`):
  /// evaluated, and kept only in `__annotations__`.
  const llvm::DenseSet<const ir::Op *> &annotations;
  RuleMemo &memo;

  const ValueSet &valuesOf(const ir::Op *op) { return values.valuesOf(op); }
  std::string subject() const { return m.subject(unit); }
  Diagnostic *reject(const ir::Op &op, DiagId id, std::initializer_list<std::string_view> args) {
    return m.report(Tier::Reject, unit, op, id, args);
  }
  Diagnostic *isolate(const ir::Op &op, DiagId id, std::initializer_list<std::string_view> args) {
    return m.report(Tier::Isolate, unit, op, id, args);
  }
};

/// The range of an attribute op's name (`__class__` in `x.__class__`), for
/// diagnostics that point at the attribute rather than the whole chain.
SourceRange attributeNameRange(RuleContext &ctx, const ir::Op &attr);
/// Says what an attribute write's target is: "module 'torch'", "the model's
/// 'transformer.h.0'", "a value ivc cannot type ...".
std::string describeBase(const Value &base);
/// Whether an attribute name is rejected by itself (private or introspection).
bool rejectedAttributeName(std::string_view name);
/// `norms.__getitem__` of a list, a str or a tensor (`key=norms.__getitem__`):
/// the bound method `norms[i]` calls, nothing more (what it holds is read
/// through other dunders, rejected as ever). Not rejected.
bool isItemAccessor(RuleContext &ctx, const ir::Op &attribute);
/// What owns an introspection attribute (frames, generators, code objects,
/// ...), if `name` is one; the one list every rule uses.
std::optional<std::string_view> frameAttributeOwner(std::string_view name);

bool isDunder(std::string_view name);
bool isPrivate(std::string_view name); // starts with '_'
bool isOneOf(std::string_view s, std::initializer_list<std::string_view> names);
/// Whether a value of kind `k` may be a tensor (or a numpy array, which ivc
/// types as one): typed as one, not typed at all, or an attribute ivc takes
/// for a method, which may be data (`batch.input_ids`).
bool mayHoldTensor(ValueKind k);
/// An op's source text, shortened to 40 characters, for messages.
std::string shortSource(RuleContext &ctx, const ir::Op &op);
/// The same in quotes.
std::string quotedSource(RuleContext &ctx, const ir::Op &op);
using ir::argument;
using ir::keywordArgument;
using ir::positionalArgument;
/// A known string value of `op`, if it has exactly one.
std::optional<std::string_view> knownString(RuleContext &ctx, const ir::Op *op);
/// Whether a qualified name is reported by the reference rules already
/// (prohibited, not allowed, unsafe), so calls through it add nothing.
bool reportedReference(RuleContext &ctx, std::string_view qualified);
/// The value a name op reads when its symbol has one binding, a plain
/// `name = value` (what the sizing rules follow a name through), or null.
const ir::Op *onlyAssignedValue(RuleContext &ctx, const ir::Op *name);
/// What `op` evaluates to through up to eight such names (`op` itself when
/// it is no name), or null where a name has another kind of binding.
const ir::Op *valueBehindNames(RuleContext &ctx, const ir::Op *op);

// References.cpp
void checkName(ir::Op &op, RuleContext &ctx);
/// REJECT where the body rebinds the trace's model or tracer, whose every
/// use ivc judges as theirs.
void checkTraceNameBindings(RuleContext &ctx);
/// ISOLATE when one name stands for two variables a runtime cannot keep
/// apart (Namespaces.cpp).
void checkSharedNames(MediatorContext &m);
/// ISOLATE when the mediator's code is too long to compile in the server's
/// process (CodeSize.cpp).
void checkCodeSize(MediatorContext &m);
void checkAttribute(ir::Op &op, RuleContext &ctx);
// Calls.cpp
void checkCall(ir::Op &op, RuleContext &ctx);
/// A function, builtin or method passed as an argument (to map, a sort key,
/// a defaultdict factory, ...) is judged as if called.
void checkEscapingReference(ir::Op &op, RuleContext &ctx);
/// Whether the module member `qualified` is a catalogued function or
/// constant, a pure stdlib helper or a class FAST code may name: anything
/// else, a module above all, keeps its attributes out of the analysis's
/// sight once it is stored or passed (ModuleValues.cpp).
bool confirmedValue(RuleContext &ctx, std::string_view qualified);
/// Whether calling method `name` on a tensor, string or container is
/// confirmed (the catalog and the pure method lists).
bool confirmedMethodName(std::string_view name, const OpCatalog &catalog);
// DynamicLookup.cpp: returns true when `call` is a getattr-like call it judged.
bool checkDynamicLookup(ir::Op &call, const Value &callee, RuleContext &ctx);
// Formatting.cpp: str.format / format_map / string.Formatter.
bool checkFormatting(ir::Op &call, const Value &callee, RuleContext &ctx);
/// `"...".format` referenced (called or not: `map("{0.x}".format, xs)`).
bool checkFormatReference(ir::Op &attr, RuleContext &ctx);
void checkFormatterReference(ir::Op &op, std::string_view qualified, RuleContext &ctx);
// UnsafeArguments.cpp: catalogued functions made unsafe by one argument
// (`searchsorted(sorter=...)`, `sparse=True`, numpy's `where=` without `out=`).
void checkUnsafeArguments(ir::Op &call, const Value &callee, RuleContext &ctx);
/// Reports such a function used as a value (handed to map, a sort key,
/// partial or an apply); returns whether it did.
bool checkUnsafeArgumentsReference(ir::Op &op, const Value &v, RuleContext &ctx);
// IntegerDivision.cpp: `//`, `%` and torch's division functions where a
// tensor may take part and the divisor may be -1 (the minimum by -1 traps).
void checkIntegerDivision(ir::Op &op, RuleContext &ctx);
/// Whether `op` is a tensor of indices into another (`t.argmax(-1)`,
/// `t.topk(k).indices`), each below that tensor's length.
bool holdsIndices(RuleContext &ctx, const ir::Op *op);
void checkDivisionCall(ir::Op &call, const Value &callee, RuleContext &ctx);
/// A division function passed as a value; returns true when it reported.
bool checkDivisionReference(ir::Op &op, const Value &v, RuleContext &ctx);
// ModuleValues.cpp: a module (or another unconfirmed member) stored or passed.
void checkModuleOperands(ir::Op &op, RuleContext &ctx);
// Subscripts.cpp
void checkSubscript(ir::Op &op, RuleContext &ctx);
// Statements.cpp: statements, definitions, patterns and other constructs.
void checkStatement(ir::Op &op, RuleContext &ctx);
/// Whether `callee`, naming `qualified`, is called to open a `with` item of
/// a thread-local mode the `with` restores (`with torch.autocast(...):`).
bool opensScopedMode(RuleContext &ctx, const ir::Op &callee, std::string_view qualified);
// Cost.cpp: binary operators, augmented assignments and calls whose work has
// no bound ivc can see (IVC312).
void checkCost(ir::Op &op, RuleContext &ctx);
/// Loops, comprehensions, `*t` and unpacking of a tensor ivc sizes: one
/// tensor object per row, all made at once.
void checkIteration(ir::Op &op, RuleContext &ctx);

} // namespace ivc::rules

#endif
