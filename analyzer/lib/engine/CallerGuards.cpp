//===- CallerGuards.cpp - FAST when the caller's values are small ---------===//
#include "CallerGuards.h"

#include "ivc/resolve/Values.h"

#include <algorithm>

namespace ivc {

namespace {

/// At most this many names are tried: each removal is one more analysis.
constexpr size_t MaxCandidates = 8;

struct Outcome {
  MediatorFacts facts;
  std::vector<Diagnostic> diagnostics;
};

using Guards = std::map<std::string, CallerAssumption>;

/// Whether the mediator's code reads an attribute of `name` that no number
/// has (`v.shape`, `v.norm()`): then it is first taken for a small tensor.
/// (Only a first guess: the analysis decides what the guard must be.)
bool readAsTensor(const EffectiveCode &code, std::string_view name) {
  static constexpr std::string_view NumberAttributes[] = {
      "real",      "imag",      "conjugate",   "is_integer", "as_integer_ratio", "bit_length",
      "bit_count", "numerator", "denominator", "hex",        "to_bytes"};
  bool found = false;
  for (const CodeUnit &unit : code.units)
    code.forEachOp(unit, [&](const ir::Op *op) {
      const ir::Op *of = op->is(ir::OpKind::Attribute) ? op->operand(0) : nullptr;
      found = found || (of && of->is(ir::OpKind::Name) && of->text == name &&
                        !llvm::is_contained(NumberAttributes, op->text));
    });
  return found;
}

/// The names guarded as `kind`, quoted: 'a', 'b'.
std::string quoted(const Guards &guards, CallerAssumption kind) {
  std::string out;
  for (const auto &[name, k] : guards)
    if (k == kind)
      out += (out.empty() ? "'" : ", '") + name + "'";
  return out;
}

/// The mediator analyzed again with `guards` assumed of the caller's
/// values; with `remark`, the remark that says so.
Outcome analyzeAssuming(const Policy &policy, const TraceRegion &trace, const Mediator &m,
                        const ParsedFile &main, const GuardedAnalysis &analysis,
                        const Guards &guards, int64_t most, bool remark) {
  std::unique_ptr<ModuleContext> context = analysis.freshContext();
  context->values->assumeCallerKinds(guards, double(most));
  EffectiveCode code = analysis.effectiveCode(*context);
  Outcome out;
  DiagnosticSink sink;
  MediatorContext ctx{policy, OpCatalog::builtin(), trace, m, code, out.facts, sink, main};
  for (auto &pass : createPasses())
    pass->run(ctx);
  if (remark) {
    std::string what;
    auto add = [&](CallerAssumption kind, const std::string &as) {
      if (std::string names = quoted(guards, kind); !names.empty())
        what += (what.empty() ? "" : ", and ") + names + as;
    };
    add(CallerAssumption::SmallNumber, " an int or a float of at most " + std::to_string(most));
    add(CallerAssumption::SmallTensor,
        " a tensor of at most " + std::to_string(most) + " elements (an empty dimension as 1)");
    add(CallerAssumption::NumberOrTensor, " an int, a float or a tensor");
    const CodeUnit &body = code.units.front();
    SourceRange at = m.kind == MediatorKind::Invoke ? m.withOp->range : trace.headerRange;
    ctx.report(Tier::Fast, body, at, DiagId::CallerGuard, {ctx.subject(body), what});
  }
  out.diagnostics = std::move(sink.diagnostics());
  return out;
}

} // namespace

bool guardCallerValues(const Policy &policy, const TraceRegion &trace, const Mediator &m,
                       const ParsedFile &main, const GuardedAnalysis &analysis,
                       MediatorFacts &facts, std::vector<Diagnostic> &diagnostics) {
  // Only what values decide can a guard change: a cost (IVC312) or a
  // division that may trap (IVC307). A while loop stays ISOLATE whatever the
  // caller passes, and trying would analyze the mediator again for nothing.
  if (facts.tier != Tier::Isolate ||
      !llvm::all_of(facts.reasons, [](const Reason &r) {
        return r.tier != Tier::Isolate || r.id == DiagId::UnboundedCost ||
               r.id == DiagId::UnsafeEntryPoint;
      }))
    return false;
  // The caller's names of no checked kind, numbers of no checked size and
  // tensors of no checked shape, first all taken for small numbers, or small
  // tensors where that is what the code reads them as (the assumption
  // itself leaves alone those the file binds elsewhere than in their own
  // scope, or to what no number or tensor is).
  Guards guards;
  for (const std::string &n : facts.freeNames) {
    auto typed = facts.freeTypes.find(n);
    std::string_view kind =
        typed == facts.freeTypes.end() ? std::string_view() : std::string_view(typed->second);
    if (facts.freeImports.count(n) || !(kind.empty() || kind == "number" || kind == "tensor"))
      continue;
    bool tensor = kind == "tensor" || (kind.empty() && readAsTensor(analysis.analyzed, n));
    guards.emplace(n, tensor ? CallerAssumption::SmallTensor : CallerAssumption::SmallNumber);
  }
  if (guards.empty() || guards.size() > MaxCandidates)
    return false;
  // The largest bound that makes it FAST (`torch.zeros(n_layers, seq_len)`
  // takes two numbers of 4096 at most); failing that, with the names taken
  // for numbers taken for tensors instead (`torch.outer(v, v)`).
  int64_t most = 0;
  auto fast = [&](const Guards &assumed) {
    return analyzeAssuming(policy, trace, m, main, analysis, assumed, most, false)
               .facts.tier == Tier::Fast;
  };
  auto largest = [&](const Guards &assumed) {
    for (int64_t bound : GuardBounds)
      if (most = bound; fast(assumed))
        return true;
    most = 0;
    return false;
  };
  if (!largest(guards)) {
    Guards tensors = guards;
    for (auto &[name, kind] : tensors)
      if (kind == CallerAssumption::SmallNumber && !facts.freeTypes.count(name))
        kind = CallerAssumption::SmallTensor;
    if (tensors == guards || !largest(tensors))
      return false;
    guards = std::move(tensors);
  }
  // Then as little as keeps it FAST, name by name: nothing, else a number
  // or a tensor, else what was first assumed (a steering vector taken for
  // a number would send the mediator to a worker every time).
  std::vector<std::string> names;
  for (const auto &entry : guards)
    names.push_back(entry.first);
  for (const std::string &n : names) {
    Guards weaker = guards;
    weaker.erase(n);
    if (fast(weaker)) {
      guards = std::move(weaker);
      continue;
    }
    weaker[n] = CallerAssumption::NumberOrTensor;
    if (fast(weaker))
      guards = std::move(weaker);
  }
  Outcome guarded = analyzeAssuming(policy, trace, m, main, analysis, guards, most, true);
  // The kinds the file fixes stay what a runtime refuses to see broken; the
  // assumed ones only send the mediator to a worker.
  guarded.facts.freeTypes = std::move(facts.freeTypes);
  facts = std::move(guarded.facts);
  facts.guards = guards;
  facts.guardMost = most;
  for (Diagnostic &d : guarded.diagnostics)
    if (d.id == DiagId::CallerGuard)
      diagnostics.push_back(std::move(d));
  return true;
}

} // namespace ivc
