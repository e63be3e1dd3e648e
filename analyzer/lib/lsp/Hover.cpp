//===- Hover.cpp ----------------------------------------------------------===//
#include "Hover.h"

#include "Mediators.h"

namespace ivc::lsp {

using llvm::json::Object;

namespace {

// A Markdown code span of `s` on one line: backticks would end the span,
// and the engine's excerpts of multi-line code keep their indentation.
std::string code(std::string_view s) {
  std::string out = "`";
  for (char c : s) {
    if (c == '`')
      c = '\'';
    if (c == ' ' && out.back() == ' ')
      continue;
    out += c;
  }
  return out + "`";
}

void describeMediator(std::string &md, const TraceRegion &t, const Mediator &m,
                      const MediatorFacts &f) {
  std::string name = mediatorName(t, m);
  md += "- **" + (name.empty() ? std::string("trace body") : name) + "**: " + tierLabel(f.tier);
  if (f.differentiate)
    md += " · differentiates";
  md += "\n";
  for (const Reason &r : f.reasons) {
    const DiagInfo &info = diagInfo(r.id);
    md += "  - " + tierLabel(r.tier) + " " + std::string(info.code) + " " +
          std::string(info.name) + ": " + r.message + "\n";
    if (r.via.empty())
      continue;
    std::string chain;
    for (const std::string &step : r.via)
      chain += (chain.empty() ? "" : " → ") + step;
    md += "    via " + code(chain) + "\n";
  }
}

} // namespace

llvm::json::Value hover(const AnalysisResult &r, Position at, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  const SourceFile &file = a.source();
  uint32_t line = file.position(toOffset(file, at, e, /*strict=*/false).offset).line;
  for (const TraceRegion &t : a.parsed->traces) {
    const Mediator *only = nullptr; // the invoke whose header is hovered
    LineSpan span = traceHeaderLines(file, t);
    if (!span.contains(line)) {
      for (const Mediator &m : t.mediators)
        if (m.kind == MediatorKind::Invoke && invokeHeaderLines(file, m).contains(line)) {
          only = &m;
          span = invokeHeaderLines(file, m);
        }
      if (!only)
        continue;
    }
    std::string md = "**ivc** · " + code(t.receiver + "." + t.method) + " · policy " +
                     code(a.policy.name) + "\n\n";
    for (const Mediator &m : t.mediators)
      if (!only || only == &m)
        describeMediator(md, t, m, a.facts[t.index][m.index]);
    Range range{{span.first, 0},
                toPosition(file, file.lineStart(span.last) + uint32_t(file.lineText(span.last).size()), e)};
    return Object{{"contents", Object{{"kind", "markdown"}, {"value", md}}},
                  {"range", toJSON(range)}};
  }
  return nullptr;
}

} // namespace ivc::lsp
