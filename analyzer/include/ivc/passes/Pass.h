//===- Pass.h - Passes over a mediator's effective code ------------------===//
//
// A pass reads the IR and the facts computed so far for one mediator, and
// emits diagnostics and facts; it never prints. Passes are registered in one
// place (PassRegistry.cpp) and run in order for every mediator.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_PASSES_PASS_H
#define IVC_PASSES_PASS_H

#include "ivc/diag/Diagnostic.h"
#include "ivc/frontend/Frontend.h"
#include "ivc/policy/OpCatalog.h"
#include "ivc/policy/Policy.h"
#include "ivc/resolve/EffectiveCode.h"

#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_set>
#include <string>
#include <vector>

namespace ivc {

enum class Tier : uint8_t { Fast, Isolate, Reject };
std::string_view tierName(Tier t);

/// Why a mediator has its tier: the op that decided, and how the mediator reaches it.
struct Reason {
  Tier tier = Tier::Fast;
  DiagId id;
  std::string message;
  SourceRange range;
  const SourceFile *file = nullptr;
  std::vector<std::string> via; // "body L12", "unembed() L3", then the op
  /// For each entry of `via` that ends in " L<line>", the byte offset whose
  /// line it names; NoOffset for the others. Lets a later analysis move a
  /// reason to where its code moved (see engine/Reuse.cpp).
  std::vector<uint32_t> viaAt;
  static constexpr uint32_t NoOffset = UINT32_MAX;
};

/// The bounds a guarded number of the caller's may be given
/// (MediatorFacts::guards), the largest that makes a mediator FAST: a length
/// of what exists times 2^16 is within a tensor's limit, and so is a
/// product of two numbers of 2^12.
constexpr int64_t GuardBounds[] = {int64_t(1) << 16, int64_t(1) << 12, int64_t(1) << 8};

struct Definition {
  std::string name;
  std::string source;
  /// The function around the trace binds it, not the module: a runtime
  /// runs it where the body runs, apart from the module's names.
  bool inFunction = false;
  /// A pinned list or dict made empty (`acts = []`): the mediators that save
  /// it each fill a copy, which a runtime joins (in nnsight they fill one).
  bool startsEmpty = false;
};

/// Everything ivc learns about one mediator; the plan prints it.
struct MediatorFacts {
  Tier tier = Tier::Fast;
  bool differentiate = false;
  bool touchesWeights = false;
  std::vector<Reason> reasons;
  /// Module path -> accesses ("output.read", "output.write", "output.in_place", "save", ...).
  std::map<std::string, std::set<std::string>> modules;
  std::vector<std::string> saves;
  std::vector<std::string> freeNames;
  /// The free names bound only by import statements, with the dotted path
  /// each imports (`np`: numpy, `zeros`: torch.zeros): a runtime binds each
  /// to what that path names and nothing else.
  std::map<std::string, std::string> freeImports;
  /// The free names the caller supplies whose kind the verdict assumed
  /// (`tensor`, `number`, `str`, `bool`, `none`): a runtime refuses a value
  /// of another kind.
  std::map<std::string, std::string> freeTypes;
  std::vector<Definition> definitions;
  /// The body lies in a function: its names are that function's, which the
  /// module's functions do not see.
  bool inFunction = false;
  /// The free names that are the function's, not the module's.
  std::vector<std::string> functionNames;
  /// The free names whose kinds the FAST verdict assumes: an int or a float
  /// of at most `guardMost`, a tensor of at most `guardMost` elements, or an
  /// int, a float or a tensor (engine/CallerGuards.cpp). A runtime checks the caller's values, and
  /// runs the mediator ISOLATE when one is anything else.
  std::map<std::string, CallerAssumption> guards;
  int64_t guardMost = 0;
  /// Every name the functions around the body bind (parameters, locals):
  /// one nothing gives a value is unbound there, as Python's unassigned
  /// local is, never the module's value or a builtin.
  std::vector<std::string> functionLocals;
  /// Names bound outside the body to a path from the trace's receiver
  /// (`blk = model.transformer.h[1]`, `n = model.config.n_layer`): a
  /// runtime binds each to what that path names on the model it runs.
  std::map<std::string, std::string> modelAliases;
  /// Names the trace's body binds before its invokes to `tracer.barrier(n)`
  /// with a constant n: a runtime binds each to a barrier of n participants.
  std::map<std::string, int64_t> barriers;
  /// The `for` of the trace's body a runtime runs this invoke over, one copy
  /// per turn (passes/InvokeLoop.h): its target and iterable as written.
  struct Loop {
    std::string target, iterable;
    SourceRange range;
    std::vector<std::string> names; // the target's, bound per turn
  };
  std::optional<Loop> loop;
};

/// Collects diagnostics once each, whichever mediator finds them.
class DiagnosticSink {
public:
  /// Adds `d` unless the same diagnostic was reported already; returns
  /// whether it was added.
  bool add(Diagnostic d);
  std::vector<Diagnostic> &diagnostics() { return diags_; }

private:
  std::vector<Diagnostic> diags_;
  struct KeyHash {
    size_t operator()(const std::tuple<uint16_t, const void *, uint32_t, uint32_t> &k) const;
  };
  std::unordered_set<std::tuple<uint16_t, const void *, uint32_t, uint32_t>, KeyHash> seen_;
};

/// What a pass sees of the mediator it runs on.
struct MediatorContext {
  const Policy &policy;
  const OpCatalog &catalog;
  const TraceRegion &trace;
  const Mediator &mediator;
  const EffectiveCode &code;
  MediatorFacts &facts;
  DiagnosticSink &sink;
  const ParsedFile &main;
  const SourceFile &mainFile = *main.source;

  /// "Trace body", "Invoke body" or "Function 'helper'": who does what a message says.
  std::string subject(const CodeUnit &unit) const;
  const SourceFile &fileOf(const CodeUnit &unit) const;
  const ParsedFile &parsedOf(const CodeUnit &unit) const;

  /// Records a reason of `tier` for `op` of `unit` and reports the matching
  /// diagnostic (built from the table entry of `id` and `args`), with a note
  /// at each step of the path that reaches the unit. Returns the diagnostic
  /// (already in the sink) so a caller may add notes or fix-its, or null if
  /// it was reported before.
  Diagnostic *report(Tier tier, const CodeUnit &unit, const ir::Op &op, DiagId id,
                     std::initializer_list<std::string_view> args) {
    return report(tier, unit, op.range, id, args);
  }
  Diagnostic *report(Tier tier, const CodeUnit &unit, SourceRange range, DiagId id,
                     std::initializer_list<std::string_view> args);
};

class Pass {
public:
  virtual ~Pass() = default;
  virtual std::string_view name() const = 0;
  virtual void run(MediatorContext &ctx) = 0;
};

/// Every pass, in the order they run.
std::vector<std::unique_ptr<Pass>> createPasses();

} // namespace ivc

#endif
