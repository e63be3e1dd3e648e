//===- CallerGuards.cpp - FAST when the caller's numbers are small --------===//
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
                        const SourceFile &mainFile, const GuardedAnalysis &analysis,
                        const Guards &guards, int64_t most, bool remark) {
  std::unique_ptr<ModuleContext> context = analysis.freshContext();
  context->values->assumeCallerKinds(guards, double(most));
  EffectiveCode code = analysis.effectiveCode(*context);
  Outcome out;
  DiagnosticSink sink;
  MediatorContext ctx{policy, OpCatalog::builtin(), trace, m, code, out.facts, sink, mainFile};
  for (auto &pass : createPasses())
    pass->run(ctx);
  if (remark) {
    std::string numbers = quoted(guards, CallerAssumption::SmallNumber);
    std::string values = quoted(guards, CallerAssumption::NumberOrTensor);
    std::string what;
    if (!numbers.empty())
      what = numbers + " an int or a float of at most " + std::to_string(most);
    if (!values.empty())
      what += (what.empty() ? "" : ", and ") + values + " an int, a float or a tensor";
    const CodeUnit &body = code.units.front();
    SourceRange at = m.kind == MediatorKind::Invoke ? m.withOp->range : trace.headerRange;
    ctx.report(Tier::Fast, body, at, DiagId::CallerGuard, {ctx.subject(body), what});
  }
  out.diagnostics = std::move(sink.diagnostics());
  return out;
}

} // namespace

bool guardCallerNumbers(const Policy &policy, const TraceRegion &trace, const Mediator &m,
                        const SourceFile &mainFile, const GuardedAnalysis &analysis,
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
  // The caller's names of no checked kind or numbers of no checked size,
  // first all taken for small numbers (the assumption itself leaves alone
  // those the file binds elsewhere than in their own scope, or to what no
  // number is).
  Guards guards;
  for (const std::string &n : facts.freeNames) {
    auto typed = facts.freeTypes.find(n);
    if (!facts.freeImports.count(n) && (typed == facts.freeTypes.end() || typed->second == "number"))
      guards.emplace(n, CallerAssumption::SmallNumber);
  }
  if (guards.empty() || guards.size() > MaxCandidates)
    return false;
  // The largest bound that makes it FAST (`torch.zeros(n_layers, seq_len)`
  // takes two numbers of 4096 at most).
  int64_t most = 0;
  auto fast = [&](const Guards &assumed) {
    return analyzeAssuming(policy, trace, m, mainFile, analysis, assumed, most, false)
               .facts.tier == Tier::Fast;
  };
  for (int64_t bound : GuardBounds)
    if (most = bound; fast(guards))
      break;
    else
      most = 0;
  if (!most)
    return false;
  // Then as little as keeps it FAST, name by name: nothing, else a number
  // or a tensor, else a small number (a steering vector taken for a number
  // would send the mediator to a worker every time).
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
  Outcome guarded = analyzeAssuming(policy, trace, m, mainFile, analysis, guards, most, true);
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
