//===- PlanWriter.cpp - Analysis -> ivc-plan/v1 JSON ----------------------===//
#include "ivc/plan/Plan.h"

#include "ivc/diag/JsonEmitter.h"
#include "ivc/support/Text.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>

namespace ivc {

using namespace ir;

namespace {

llvm::json::Array strings(const std::vector<std::string> &items) {
  llvm::json::Array a;
  for (const std::string &s : items)
    a.push_back(utf8(s));
  return a;
}

llvm::json::Object barrierMap(const std::map<std::string, int64_t> &barriers) {
  llvm::json::Object out;
  for (const auto &[name, participants] : barriers)
    out[utf8(name)] = participants;
  return out;
}

llvm::json::Object nameMap(const std::map<std::string, std::string> &names) {
  llvm::json::Object o;
  for (const auto &[name, what] : names)
    o[utf8(name)] = utf8(what);
  return o;
}

/// Each guarded name with what its value must be.
llvm::json::Object guardMap(const MediatorFacts &f) {
  llvm::json::Object out;
  for (const auto &[name, kind] : f.guards) {
    if (kind == CallerAssumption::SmallNumber)
      out[utf8(name)] = llvm::json::Object{{"kind", "number"}, {"most", f.guardMost}};
    else if (kind == CallerAssumption::SmallTensor)
      out[utf8(name)] = llvm::json::Object{{"kind", "tensor"}, {"most", f.guardMost}};
    else
      out[utf8(name)] = llvm::json::Object{{"kind", "number_or_tensor"}};
  }
  return out;
}

// The body of a mediator as code a runtime can execute on its own. A trace's
// Body mediator leaves out the invokes (they are mediators of their own),
// each replaced by `pass` so the code stays valid. Dedenting leaves the lines
// that start inside a string literal alone: the code that runs is the code
// that was checked.
std::string mediatorSource(const ParsedFile &parsed, const TraceRegion &trace, const Mediator &m) {
  const SourceFile &file = *parsed.source;
  const SourceRange &body = m.bodyRange;
  uint32_t pos = body.begin.offset;
  std::string text;
  // Where each copied piece of `text` starts in the file (an offset into
  // `text`, then into the file): `pass` is never where a line starts.
  std::vector<std::pair<size_t, uint32_t>> pieces;
  auto copyTo = [&](uint32_t end) {
    pieces.push_back({text.size(), pos});
    text += file.text().substr(pos, end - pos);
  };
  if (m.kind == MediatorKind::Body)
    for (const Mediator &inv : trace.mediators) {
      if (inv.kind != MediatorKind::Invoke)
        continue;
      copyTo(inv.range.begin.offset);
      text += "pass";
      pos = inv.range.end.offset;
    }
  copyTo(body.end.offset);
  return dedent(text, indentWidth(file.lineText(body.begin.line)), [&](size_t at) {
    auto piece =
        std::prev(std::upper_bound(pieces.begin(), pieces.end(), std::make_pair(at, UINT32_MAX)));
    return parsed.insideString(piece->second + uint32_t(at - piece->first));
  });
}

llvm::json::Value reasonJson(const Reason &r, const SourceFile &main) {
  llvm::json::Object o{{"code", std::string(diagInfo(r.id).code)},
                       {"message", utf8(r.message)},
                       {"range", rangeJson(r.range)},
                       {"via", strings(r.via)}};
  if (r.file && r.file != &main)
    o["file"] = utf8(r.file->path());
  return o;
}

llvm::json::Value mediatorJson(const Analysis &a, const TraceRegion &t, const Mediator &m,
                               const MediatorFacts &f) {
  const SourceFile &file = a.source();
  // Strongest reasons first, then in source order.
  std::vector<const Reason *> reasons;
  for (const Reason &r : f.reasons)
    reasons.push_back(&r);
  std::stable_sort(reasons.begin(), reasons.end(), [](const Reason *x, const Reason *y) {
    if (x->tier != y->tier)
      return x->tier > y->tier;
    return x->range.begin.offset < y->range.begin.offset;
  });
  llvm::json::Array reasonArray;
  for (const Reason *r : reasons)
    reasonArray.push_back(reasonJson(*r, file));
  llvm::json::Array modules;
  for (const auto &[path, accesses] : f.modules) {
    llvm::json::Array acc;
    for (const std::string &x : accesses)
      acc.push_back(x);
    modules.push_back(llvm::json::Object{{"path", utf8(path)}, {"accesses", std::move(acc)}});
  }
  llvm::json::Array defs;
  for (const Definition &d : f.definitions) {
    llvm::json::Object def{{"name", utf8(d.name)}, {"source", utf8(d.source)}};
    if (d.inFunction)
      def["scope"] = "function";
    if (d.startsEmpty)
      def["starts_empty"] = true;
    defs.push_back(std::move(def));
  }
  llvm::json::Value invokeArgs = nullptr;
  if (m.kind == MediatorKind::Invoke && m.call) {
    // The source text of the invoke's arguments, for a runtime to report.
    std::string callText(file.slice(m.call->range));
    size_t open = callText.find('(');
    if (open != std::string::npos && callText.size() > open + 1)
      invokeArgs = utf8(callText.substr(open + 1, callText.size() - open - 2));
  }
  llvm::json::Value loop = nullptr;
  if (f.loop)
    loop = llvm::json::Object{{"target", utf8(f.loop->target)},
                              {"iterable", utf8(f.loop->iterable)},
                              {"range", rangeJson(f.loop->range)}};
  return llvm::json::Object{
      {"index", int64_t(m.index)},
      {"kind", m.kind == MediatorKind::Invoke ? "invoke" : "body"},
      {"tier", std::string(tierName(f.tier))},
      {"differentiate", f.differentiate},
      {"touches_weights", f.touchesWeights},
      {"reasons", std::move(reasonArray)},
      {"modules", std::move(modules)},
      {"saves", strings(f.saves)},
      {"free_names", strings(f.freeNames)},
      {"free_imports", nameMap(f.freeImports)},
      {"free_types", nameMap(f.freeTypes)},
      {"definitions", std::move(defs)},
      {"in_function", f.inFunction},
      {"function_names", strings(f.functionNames)},
      {"function_locals", strings(f.functionLocals)},
      {"model_aliases", nameMap(f.modelAliases)},
      {"barriers", barrierMap(f.barriers)},
      {"guards", guardMap(f)},
      {"invoke_arguments", std::move(invokeArgs)},
      {"loop", std::move(loop)},
      {"source", utf8(mediatorSource(*a.parsed, t, m))},
      {"range", rangeJson(m.range)},
      {"body_range", rangeJson(m.bodyRange)},
  };
}

llvm::json::Value traceJson(const Analysis &a, const TraceRegion &t) {
  llvm::json::Array mediators;
  for (const Mediator &m : t.mediators)
    mediators.push_back(mediatorJson(a, t, m, a.facts[t.index][m.index]));
  return llvm::json::Object{
      {"index", int64_t(t.index)},
      {"kind", utf8(t.method)},
      {"parent", t.parent < 0 ? llvm::json::Value(nullptr) : llvm::json::Value(int64_t(t.parent))},
      {"receiver", utf8(t.receiver)},
      {"tracer", t.tracerName.empty() ? llvm::json::Value(nullptr) : llvm::json::Value(utf8(t.tracerName))},
      {"range", rangeJson(t.range)},
      {"mediators", std::move(mediators)},
  };
}

} // namespace

void writePlan(llvm::raw_ostream &os, const Analysis &a) {
  const SourceFile &file = a.source();
  // Of the file as given, byte-order mark included.
  llvm::SHA256 hasher;
  if (file.hasByteOrderMark())
    hasher.update("\xEF\xBB\xBF");
  hasher.update(file.text());
  auto digest = hasher.final();
  // One diagnostic or trace at a time: a JSON object costs kilobytes in
  // memory, many times its text, and a notebook export has thousands.
  // The keys are in the sorted order printJson gives an object.
  llvm::json::OStream j(os, 2);
  j.object([&] {
    j.attributeArray("diagnostics", [&] {
      for (size_t i = 0; i < a.diagnostics.size(); ++i)
        j.value(diagnosticJson(a.diagnostics[i], file, a.suppressed[i]));
    });
    j.attribute("file", utf8(file.path()));
    j.attribute("policy", llvm::json::Object{{"name", utf8(a.policy.name)},
                                             {"fingerprint", a.policy.fingerprint()}});
    j.attribute("schema", std::string(PlanSchema));
    j.attribute("source_sha256", llvm::toHex(digest, true));
    j.attributeArray("traces", [&] {
      for (const TraceRegion &t : a.parsed->traces)
        j.value(traceJson(a, t));
    });
  });
  os << "\n";
}

std::string planText(const Analysis &a) {
  std::string text;
  llvm::raw_string_ostream os(text);
  writePlan(os, a);
  return text;
}

std::string printJson(const llvm::json::Value &v) {
  return llvm::formatv("{0:2}", v).str() + "\n";
}

} // namespace ivc
