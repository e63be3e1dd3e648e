//===- Reuse.cpp ----------------------------------------------------------===//
#include "Reuse.h"

#include <algorithm>

namespace ivc {

PositionMap::PositionMap(const ParsedFile &previous, const ParsedFile &current)
    : previous_(previous), current_(current), movedTo_(previous.units.size(), -1) {
  std::vector<uint8_t> copies(previous.units.size(), 0);
  for (size_t i = 0; i < current.units.size(); ++i)
    if (int32_t from = current.units[i].copiedFrom; from >= 0) {
      movedTo_[size_t(from)] = copies[size_t(from)] ? -1 : int32_t(i);
      copies[size_t(from)] = 1;
    }
}

std::optional<SourcePos> PositionMap::map(SourcePos pos) const {
  const std::vector<LoweredUnit> &units = previous_.units;
  // The last statement that starts at or before `pos`.
  auto it = std::upper_bound(units.begin(), units.end(), pos.offset,
                             [](uint32_t offset, const LoweredUnit &u) { return offset < u.begin; });
  if (it == units.begin())
    return std::nullopt;
  --it;
  uint32_t from = uint32_t(it - units.begin());
  if (pos.offset > it->end)
    return std::nullopt; // between statements: comments, blank lines
  int32_t to = from == ownFrom_ ? int32_t(ownTo_) : movedTo_[from];
  if (to < 0)
    return std::nullopt;
  const LoweredUnit &now = current_.units[size_t(to)];
  if (now.column != it->column)
    return std::nullopt;
  return SourcePos{pos.line - it->line + now.line, pos.column, pos.offset - it->begin + now.begin};
}

bool PositionMap::map(SourceRange &r) const {
  std::optional<SourcePos> b = map(r.begin), e = map(r.end);
  if (!b || !e)
    return false;
  r = {*b, *e};
  return true;
}

const SourceFile *PositionMap::mapFile(const SourceFile *f) const {
  return f == previous_.source.get() ? current_.source.get() : f;
}

bool PositionMap::move(uint32_t fromUnit, uint32_t toUnit, MediatorFacts &facts,
                       std::vector<Diagnostic> &diagnostics) const {
  ownFrom_ = fromUnit;
  ownTo_ = toUnit;
  for (Diagnostic &d : diagnostics) {
    // Findings in another file (a capture manifest's function) stay put;
    // the engine reuses nothing when there is a manifest.
    if (d.file || !map(d.range))
      return false;
    for (DiagNote &n : d.notes) {
      if (n.file && n.file != previous_.source.get())
        return false;
      n.file = mapFile(n.file);
      if (!map(n.range))
        return false;
    }
    for (FixIt &f : d.fixIts)
      if (!map(f.range))
        return false;
  }
  for (Reason &r : facts.reasons) {
    if (r.file != previous_.source.get() || !map(r.range))
      return false;
    r.file = current_.source.get();
    for (size_t i = 0; i < r.viaAt.size() && i < r.via.size(); ++i) {
      if (r.viaAt[i] == Reason::NoOffset)
        continue;
      std::optional<SourcePos> at = map(previous_.source->position(r.viaAt[i]));
      if (!at)
        return false;
      r.viaAt[i] = at->offset;
      std::string &step = r.via[i];
      step = step.substr(0, step.rfind(" L")) + " L" + std::to_string(at->line + 1);
    }
  }
  return true;
}

} // namespace ivc
