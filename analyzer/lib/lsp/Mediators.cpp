//===- Mediators.cpp ------------------------------------------------------===//
#include "Mediators.h"

#include <algorithm>
#include <cctype>

namespace ivc::lsp {

std::string mediatorName(const TraceRegion &trace, const Mediator &m) {
  if (m.kind == MediatorKind::Body)
    return trace.mediators.size() == 1 ? "" : "body";
  unsigned invoke = 0;
  for (const Mediator &other : trace.mediators) {
    if (&other == &m)
      break;
    invoke += other.kind == MediatorKind::Invoke;
  }
  return "invoke " + std::to_string(invoke);
}

std::string tierLabel(Tier t) {
  std::string s(tierName(t));
  for (char &c : s)
    c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> decidingRules(const MediatorFacts &f) {
  std::vector<std::string> rules;
  for (const Reason &r : f.reasons) {
    if (r.tier != f.tier)
      continue;
    std::string name(diagInfo(r.id).name);
    if (std::find(rules.begin(), rules.end(), name) == rules.end())
      rules.push_back(std::move(name));
  }
  return rules;
}

std::string tierSummary(const MediatorFacts &f) {
  std::string s = tierLabel(f.tier);
  std::vector<std::string> rules = decidingRules(f);
  if (rules.empty())
    return s;
  // Two names fit a code lens; the hover lists them all.
  constexpr size_t Shown = 2;
  s += " (";
  for (size_t i = 0; i < rules.size() && i < Shown; ++i)
    s += (i ? ", " : "") + rules[i];
  if (rules.size() > Shown)
    s += " +" + std::to_string(rules.size() - Shown);
  return s + ")";
}

namespace {
// From the `with` to the line before the body, or just the `with` line when
// the body follows the colon (`with tracer.invoke(x): y = 1`).
LineSpan headerLines(const SourceFile &file, uint32_t withOffset, uint32_t bodyOffset) {
  uint32_t first = file.position(withOffset).line;
  uint32_t body = file.position(bodyOffset).line;
  return {first, body > first ? body - 1 : first};
}
} // namespace

LineSpan traceHeaderLines(const SourceFile &file, const TraceRegion &t) {
  return headerLines(file, t.range.begin.offset, t.headerRange.end.offset);
}

LineSpan invokeHeaderLines(const SourceFile &file, const Mediator &m) {
  return headerLines(file, m.range.begin.offset, m.bodyRange.begin.offset);
}

} // namespace ivc::lsp
