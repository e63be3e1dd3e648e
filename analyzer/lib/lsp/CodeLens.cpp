//===- CodeLens.cpp -------------------------------------------------------===//
#include "CodeLens.h"

#include "Mediators.h"

namespace ivc::lsp {

using llvm::json::Object;

std::string lensTitle(const Analysis &a, const TraceRegion &t) {
  std::string title = "ivc:";
  for (size_t i = 0; i < t.mediators.size(); ++i) {
    const Mediator &m = t.mediators[i];
    std::string name = mediatorName(t, m);
    title += i ? " · " : " ";
    if (!name.empty())
      title += name + " ";
    title += tierSummary(a.facts[t.index][m.index]);
  }
  return title;
}

llvm::json::Array codeLenses(const AnalysisResult &r, PositionEncoding e) {
  const Analysis &a = *r.analysis;
  llvm::json::Array lenses;
  for (const TraceRegion &t : a.parsed->traces) {
    Position at = toPosition(a.source(), t.range.begin.offset, e);
    // An empty command id: clients show the title and run nothing.
    lenses.push_back(Object{{"range", toJSON(Range{at, at})},
                            {"command", Object{{"title", lensTitle(a, t)}, {"command", ""}}}});
  }
  return lenses;
}

} // namespace ivc::lsp
