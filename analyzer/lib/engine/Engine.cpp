//===- Engine.cpp - The analysis pipeline ---------------------------------===//
#include "ivc/engine/Engine.h"

#include "CallerGuards.h"
#include "MediatorKeys.h"
#include "Reuse.h"
#include "Suppressions.h"
#include "ivc/support/Stack.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>

namespace ivc {

using namespace ir;

namespace {

// Appends `x` unless it is there: hundreds of traces share one `model` and
// one `tracer`, and every name read is looked up in these lists.
template <typename T> void addOnce(std::vector<T> &list, T x) {
  if (std::find(list.begin(), list.end(), x) == list.end())
    list.push_back(x);
}

// Names that mean the model or the tracer inside trace regions.
TraceBindings traceBindings(const ParsedFile &file, const ScopeTree &scopes) {
  TraceBindings b;
  for (const TraceRegion &t : file.traces) {
    if (t.receiverOp && t.receiverOp->is(OpKind::Name)) {
      NameResolution r = scopes.resolve(t.receiverOp);
      if (r.symbol)
        addOnce<const Symbol *>(b.modelSymbols, r.symbol);
    } else if (t.receiverOp) {
      addOnce(b.modelExpressions, file.source->slice(t.receiverOp->range));
    }
    if (!t.tracerName.empty()) {
      Scope *s = scopes.enclosingScope(t.withOp);
      NameResolution r = scopes.resolve(t.tracerName, s ? s : scopes.moduleScope());
      if (r.symbol)
        addOnce<const Symbol *>(b.tracerSymbols, r.symbol);
    }
  }
  for (const TraceRegion &t : file.traces) {
    b.tracesRunOnce &= llvm::any_of(
        file.units, [&](const LoweredUnit &u) { return u.begin == t.range.begin.offset; });
    b.traceHeaders.push_back(t.headerRange);
    for (const Mediator &m : t.mediators)
      b.mediatorBodies.push_back(m.bodyRange);
    auto body = llvm::find_if(t.mediators,
                              [](const Mediator &m) { return m.kind == MediatorKind::Body; });
    auto invoke = llvm::find_if(t.mediators,
                                [](const Mediator &m) { return m.kind == MediatorKind::Invoke; });
    if (body != t.mediators.end() && invoke != t.mediators.end())
      b.preludes.push_back({body->bodyRange.begin, invoke->range.begin});
  }
  // A name with no binding in the file (a parameter of nothing, a notebook
  // global) still means the model: it is resolved by text at its uses.
  for (const TraceRegion &t : file.traces)
    if (t.receiverOp && t.receiverOp->is(OpKind::Name) &&
        !scopes.resolve(t.receiverOp).symbol)
      addOnce(b.modelExpressions, t.receiverOp->text);
  return b;
}

void initContext(ModuleContext &ctx, std::shared_ptr<ParsedFile> file, const Manifest *manifest,
                 const Policy &policy) {
  ctx.file = std::move(file);
  ctx.scopes = std::make_unique<ScopeTree>(ctx.file->module);
  ctx.traces = traceBindings(*ctx.file, *ctx.scopes);
  ctx.values = std::make_unique<ValueAnalysis>(ctx.file->module, *ctx.file->source, *ctx.scopes,
                                               ctx.traces, manifest, policy.traceMethods,
                                               policy.importAllowlist, &OpCatalog::builtin());
}

// A manifest function's source, placed at its line and column in its file so
// that diagnostics point there: blank lines above it, and when it was
// indented, an `if 1:` line that makes the indentation valid.
std::string layOutManifestSource(const ManifestBinding &b) {
  uint32_t column = b.firstLine > 1 ? b.firstColumn : 0;
  std::string text(b.firstLine > 1 ? b.firstLine - 1 - (column ? 1 : 0) : 0, '\n');
  if (column)
    text += "if 1:\n";
  std::string pad(column, ' ');
  bool lineStart = true;
  for (char c : b.source) {
    if (lineStart && c != '\n')
      text += pad;
    text += c;
    lineStart = c == '\n';
  }
  return text;
}

// The definition named `name` (or the first one) anywhere in a lowered source.
Op *findDefinition(Op *root, std::string_view name) {
  Op *first = nullptr, *named = nullptr;
  std::function<void(Op *)> walk = [&](Op *op) {
    for (Region &r : op->regions)
      for (Op *child : r.ops) {
        if (child->is(OpKind::FunctionDef) || child->is(OpKind::ClassDef)) {
          if (!first)
            first = child;
          if (!named && child->text == name)
            named = child;
          continue;
        }
        walk(child);
      }
  };
  walk(root);
  return named ? named : first;
}

// The analyzed file first, then other files (manifest functions) by path;
// within a file by position.
bool diagBefore(const Diagnostic &a, const Diagnostic &b) {
  if ((a.file == nullptr) != (b.file == nullptr))
    return a.file == nullptr;
  if (a.file && b.file && a.file->path() != b.file->path())
    return a.file->path() < b.file->path();
  if (a.range.begin.offset != b.range.begin.offset)
    return a.range.begin.offset < b.range.begin.offset;
  return a.id < b.id;
}

// Takes the findings of the previous analysis's mediator with the same key,
// moved to where its code is now. False when there is none, or when some of
// its positions cannot be moved.
bool reuseFindings(const Analysis &previous, const PositionMap &moved, MediatorRecord &record,
                   MediatorFacts &facts) {
  auto it = previous.recordByKey.find(record.key);
  if (it == previous.recordByKey.end())
    return false;
  const MediatorRecord &old = previous.records[it->second];
  MediatorFacts f = previous.facts[old.trace][old.mediator];
  std::vector<Diagnostic> diagnostics = old.diagnostics;
  if (!moved.move(old.unit, record.unit, f, diagnostics))
    return false;
  facts = std::move(f);
  record.diagnostics = std::move(diagnostics);
  return true;
}

} // namespace

bool Analysis::hasErrors() const {
  for (size_t i = 0; i < diagnostics.size(); ++i)
    if (diagnostics[i].severity == Severity::Error && !suppressed[i])
      return true;
  return false;
}

std::unique_ptr<Analysis> Engine::analyze(std::shared_ptr<const SourceFile> source,
                                          const AnalysisOptions &options, const TSTree *oldTree,
                                          const Analysis *previous) {
  std::unique_ptr<Analysis> analysis;
  runWithAnalysisStack(
      [&] { analysis = analyzeHere(std::move(source), options, oldTree, previous); });
  return analysis;
}

std::unique_ptr<Analysis> Engine::analyzeHere(std::shared_ptr<const SourceFile> source,
                                              const AnalysisOptions &options,
                                              const TSTree *oldTree, const Analysis *previous) {
  const std::vector<std::string> &methods = options.policy.traceMethods;
  if (!frontend_ || frontendMethods_ != methods) {
    FrontendOptions fo;
    fo.traceMethods = methods;
    frontend_ = std::make_unique<Frontend>(fo);
    frontendMethods_ = methods;
  }
  auto analysis = std::make_unique<Analysis>();
  Analysis &a = *analysis;
  a.policy = options.policy;
  using Clock = std::chrono::steady_clock;
  auto seconds = [](Clock::time_point from) {
    return std::chrono::duration<double>(Clock::now() - from).count();
  };
  auto start = Clock::now();
  // The previous parse is only a guide when it was lowered the same way.
  const ParsedFile *previousParse =
      previous && previous->policy.traceMethods == methods ? previous->parsed.get() : nullptr;
  std::shared_ptr<ParsedFile> parsed =
      options.reachableCodeOnly && !oldTree && !previousParse
          ? frontend_->parseReachable(std::move(source))
          : frontend_->parse(std::move(source), oldTree, previousParse);
  a.parsed = parsed;
  a.timings.frontend = seconds(start);
  start = Clock::now();
  initContext(a.main, parsed, options.manifest.get(), a.policy);
  a.timings.resolve = seconds(start);

  // Functions bound by the manifest are parsed from their own source, laid
  // out at their first line so diagnostics point into the original file.
  std::map<const ManifestBinding *, std::pair<ModuleContext *, Op *>> loaded;
  ManifestFunctionLoader loader = [&](const ManifestBinding &b) -> std::pair<ModuleContext *, Op *> {
    auto it = loaded.find(&b);
    if (it != loaded.end())
      return it->second;
    std::string text = layOutManifestSource(b);
    auto file = frontend_->parse(
        std::make_shared<SourceFile>(b.file.empty() ? b.name : b.file, std::move(text)));
    Manifest &nested = *a.manifestScopes.emplace_back(std::make_unique<Manifest>());
    nested.origin = options.manifest ? options.manifest->origin : std::string();
    nested.bindings = b.bindings;
    auto &keep = a.manifestFunctions.emplace_back(std::make_unique<ModuleContext>());
    std::shared_ptr<ParsedFile> shared(std::move(file));
    initContext(*keep, shared, &nested, a.policy);
    Op *def = findDefinition(shared->module.root(), b.name.substr(b.name.rfind('.') + 1));
    return loaded[&b] = {keep.get(), def};
  };

  auto passes = createPasses();
  const OpCatalog &catalog = OpCatalog::builtin();
  auto cancelled = [&] {
    return options.cancelled && options.cancelled->load(std::memory_order_relaxed);
  };

  // Keys and positions for reusing the previous analysis's findings.
  std::optional<MediatorKeys> keys;
  std::optional<PositionMap> moved;
  if (options.keepForReuse && !options.manifest) {
    start = Clock::now();
    a.globalKey = globalReuseKey(a.main, a.policy.fingerprint());
    bool same = previousParse && previous->globalKey == a.globalKey;
    keys.emplace(a.main, a.globalKey, previousParse ? previous->unitSummaries : UnitSummaries(),
                 a.unitSummaries);
    if (same && !previous->records.empty())
      moved.emplace(*previousParse, *parsed);
    a.timings.resolve += seconds(start);
  }
  // The statement of each trace region.
  std::vector<uint32_t> unitOf(parsed->traces.size(), 0);
  for (uint32_t u = 0; u < parsed->units.size(); ++u)
    for (uint32_t t = 0; t < parsed->units[u].numTraces; ++t)
      unitOf[parsed->units[u].firstTrace + t] = u;

  a.facts.resize(parsed->traces.size());
  uint32_t inUnit = 0; // the mediator's position among its statement's
  for (const TraceRegion &trace : parsed->traces) {
    uint32_t unit = unitOf[trace.index];
    if (trace.index == parsed->units[unit].firstTrace)
      inUnit = 0;
    for (const Mediator &m : trace.mediators) {
      if (cancelled())
        return nullptr;
      MediatorRecord record;
      record.unit = unit;
      record.trace = trace.index;
      record.mediator = m.index;
      record.key = keys ? keys->key(unit, inUnit++) : 0;
      MediatorFacts &facts = a.facts[trace.index].emplace_back();
      if (moved && parsed->units[unit].copiedFrom >= 0 &&
          reuseFindings(*previous, *moved, record, facts)) {
        ++a.reusedMediators;
        a.records.push_back(std::move(record));
        continue;
      }
      start = Clock::now();
      EffectiveCode code = buildEffectiveCode(m, a.main, loader);
      a.timings.resolve += seconds(start);
      start = Clock::now();
      DiagnosticSink own; // merged below, where duplicates across mediators go
      MediatorContext ctx{a.policy, catalog, trace, m, code, facts, own, *parsed};
      for (auto &pass : passes)
        pass->run(ctx);
      record.diagnostics = std::move(own.diagnostics());
      GuardedAnalysis guarded{
          [&] {
            auto fresh = std::make_unique<ModuleContext>();
            initContext(*fresh, parsed, options.manifest.get(), a.policy);
            return fresh;
          },
          [&](ModuleContext &context) { return buildEffectiveCode(m, context, loader); }, code};
      guardCallerValues(a.policy, trace, m, *parsed, guarded, facts, record.diagnostics);
      a.records.push_back(std::move(record));
      a.timings.passes += seconds(start);
    }
  }

  DiagnosticSink sink;
  for (const Diagnostic &d : parsed->diagnostics)
    sink.add(d);
  for (const MediatorRecord &r : a.records)
    for (const Diagnostic &d : r.diagnostics)
      sink.add(d);
  if (keys) {
    for (uint32_t i = 0; i < a.records.size(); ++i)
      a.recordByKey.emplace(a.records[i].key, i);
  } else {
    a.records.clear();
  }
  a.diagnostics = std::move(sink.diagnostics());
  std::stable_sort(a.diagnostics.begin(), a.diagnostics.end(), diagBefore);
  a.suppressed = findSuppressed(a);
  return analysis;
}

} // namespace ivc
