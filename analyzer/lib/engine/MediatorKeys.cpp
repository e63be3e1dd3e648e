//===- MediatorKeys.cpp ---------------------------------------------------===//
#include "MediatorKeys.h"

#include "llvm/Support/xxhash.h"

#include <algorithm>

namespace ivc {

using namespace ir;

namespace {

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

uint64_t hashText(std::string_view s) {
  return llvm::xxHash64(llvm::StringRef(s.data(), s.size()));
}

// A symbol's owner, in words that survive an edit elsewhere: its name and the
// text of the scope that owns it.
uint64_t symbolIdentity(const Symbol &s, const SourceFile &source) {
  uint64_t h = hashText(s.name);
  if (s.scope && s.scope->owner && !s.scope->owner->is(OpKind::Module))
    h = mix(h, hashText(source.slice(s.scope->owner->range)));
  return h;
}

// An op's text, and for a `from` import what its range leaves out: the
// module and the level (`from os import *` and `from json import *` differ).
uint64_t opText(const Op &op, const SourceFile &source) {
  uint64_t h = hashText(source.slice(op.range));
  if (op.is(OpKind::ImportFrom))
    h = mix(mix(h, hashText(op.text2)), op.number);
  return h;
}

} // namespace

uint64_t globalReuseKey(const ModuleContext &main, const std::string &policyFingerprint) {
  const SourceFile &source = *main.file->source;
  uint64_t h = hashText(policyFingerprint);
  std::vector<uint64_t> parts;
  for (const Symbol *s : main.traces.modelSymbols)
    parts.push_back(mix(1, symbolIdentity(*s, source)));
  for (std::string_view e : main.traces.modelExpressions)
    parts.push_back(mix(2, hashText(e)));
  for (const Symbol *s : main.traces.tracerSymbols)
    parts.push_back(mix(3, symbolIdentity(*s, source)));
  for (const Op *star : main.scopes->moduleScope()->starImports)
    parts.push_back(mix(4, opText(*star, source)));
  std::sort(parts.begin(), parts.end());
  for (uint64_t p : parts)
    h = mix(h, p);
  return h;
}

MediatorKeys::MediatorKeys(const ModuleContext &main, uint64_t global,
                           const UnitSummaries &previous, UnitSummaries &summaries)
    : file_(*main.file), scopes_(*main.scopes), global_(global),
      visited_(main.file->module.numOps(), 0) {
  summarize(previous, summaries);
  for (size_t u = 0; u < summaries.size(); ++u)
    for (const UnitSummary::Binding &b : summaries[u]->bindings)
      bindingUnits_[b.name].push_back(uint32_t(u));
  fingerprintNames(summaries);
  // A statement's key: its text, what the names it reads are bound to, and
  // which of those bindings come before it.
  unitKeys_.reserve(summaries.size());
  for (size_t u = 0; u < summaries.size(); ++u) {
    uint64_t h = mix(global_, file_.units[u].hash);
    for (uint64_t name : summaries[u]->reads) {
      auto f = fingerprints_.find(name);
      h = mix(h, mix(name, f == fingerprints_.end() ? 0 : f->second));
      h = mix(h, bindingsBefore(name, u));
    }
    unitKeys_.push_back(h);
  }
}

uint64_t MediatorKeys::bindingsBefore(uint64_t name, size_t unit) const {
  auto it = bindingUnits_.find(name);
  if (it == bindingUnits_.end())
    return 0;
  return uint64_t(std::lower_bound(it->second.begin(), it->second.end(), uint32_t(unit)) -
                  it->second.begin());
}

void MediatorKeys::collectReads(const Op *root, std::vector<uint64_t> &out) {
  ++walk_;
  std::vector<const Op *> stack{root};
  while (!stack.empty()) {
    const Op *op = stack.back();
    stack.pop_back();
    if (!op || op->index >= visited_.size() || visited_[op->index] == walk_)
      continue;
    visited_[op->index] = walk_;
    if (op->is(OpKind::Name) && op->ctx == Ctx::Load)
      out.push_back(hashText(op->text));
    for (const Op *o : op->operands)
      stack.push_back(o);
    for (const Region &r : op->regions)
      for (const Op *child : r.ops)
        stack.push_back(child);
  }
}

namespace {
void sortUnique(std::vector<uint64_t> &v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}
} // namespace

void MediatorKeys::summarize(const UnitSummaries &previous, UnitSummaries &summaries) {
  const std::vector<LoweredUnit> &units = file_.units;
  summaries.assign(units.size(), nullptr);
  for (size_t u = 0; u < units.size(); ++u)
    if (int32_t from = units[u].copiedFrom; from >= 0 && size_t(from) < previous.size())
      summaries[u] = previous[size_t(from)];

  // Module-level bindings of the statements summarized afresh, by statement.
  std::vector<std::shared_ptr<UnitSummary>> fresh(units.size());
  for (size_t u = 0; u < units.size(); ++u)
    if (!summaries[u])
      fresh[u] = std::make_shared<UnitSummary>();
  auto unitOf = [&](const Op *op) -> UnitSummary * {
    auto it = std::upper_bound(units.begin(), units.end(), op->index,
                               [](uint32_t i, const LoweredUnit &u) { return i < u.firstOp; });
    if (it == units.begin())
      return nullptr;
    --it;
    return op->index < it->firstOp + it->numOps ? fresh[size_t(it - units.begin())].get()
                                                : nullptr;
  };
  const SourceFile &source = *file_.source;
  for (auto &entry : scopes_.moduleScope()->symbols) {
    const Symbol &sym = entry.second;
    uint64_t name = hashText(sym.name);
    for (const Binding &b : sym.bindings) {
      UnitSummary *into = b.site ? unitOf(b.site) : nullptr;
      if (!into)
        continue;
      UnitSummary::Binding &out = into->bindings.emplace_back();
      out.name = name;
      uint64_t h = mix(name, uint64_t(b.kind));
      for (uint8_t p : b.path)
        h = mix(h, p);
      auto take = [&](const Op *op) {
        if (!op)
          return;
        h = mix(h, opText(*op, source));
        collectReads(op, out.reads);
      };
      take(b.site);
      take(b.value);
      out.mutableDisplay = b.value && b.path.empty() &&
                           (b.value->is(OpKind::List) || b.value->is(OpKind::Set) ||
                            b.value->is(OpKind::Dict));
      // What a def or class runs where it is defined: decorators, defaults.
      if (b.kind == Binding::Kind::Function || b.kind == Binding::Kind::Class)
        for (const Op *op : statementHeader(b.site))
          take(op);
      // `x += <value>`: the value is the statement's, after the target.
      if (b.kind == Binding::Kind::AugAssign && b.site->parentRegion) {
        std::span<Op *> ops = b.site->parentRegion->ops;
        auto it = std::find(ops.begin(), ops.end(), b.site);
        while (it != ops.end() && (*it)->cls() != OpClass::Stmt)
          ++it;
        if (it != ops.end())
          take(*it);
      }
      out.text = h;
      sortUnique(out.reads);
    }
  }
  for (size_t u = 0; u < units.size(); ++u) {
    if (!fresh[u])
      continue;
    for (const Op *op : file_.module.root()->regions[0].ops.subspan(units[u].firstBodyOp,
                                                                    units[u].numBodyOps))
      collectReads(op, fresh[u]->reads);
    sortUnique(fresh[u]->reads);
    summaries[u] = std::move(fresh[u]);
  }
}

void MediatorKeys::fingerprintNames(const UnitSummaries &summaries) {
  // One node per module-level name: the hashes of its bindings, in source
  // order, and the module-level names they read. Which value a load sees
  // depends on the order of bindings (`x = 1 ... x = eval`), so each read
  // is hashed with how many of its name's bindings come before it.
  struct Node {
    uint64_t name = 0;
    std::vector<uint64_t> texts;
    std::vector<uint32_t> reads;
    uint32_t index = UINT32_MAX, low = 0;
    bool onStack = false;
    bool mutableDisplay = false;
  };
  std::vector<Node> nodes;
  llvm::DenseMap<uint64_t, uint32_t> nodeOf;
  for (const auto &s : summaries)
    for (const UnitSummary::Binding &b : s->bindings)
      if (nodeOf.try_emplace(b.name, uint32_t(nodes.size())).second)
        nodes.push_back({b.name, {}, {}});
  for (size_t u = 0; u < summaries.size(); ++u)
    for (const UnitSummary::Binding &b : summaries[u]->bindings) {
      Node &n = nodes[nodeOf[b.name]];
      uint64_t text = b.text;
      for (uint64_t r : b.reads) {
        auto it = nodeOf.find(r);
        if (it != nodeOf.end())
          n.reads.push_back(it->second);
        text = mix(text, mix(r, bindingsBefore(r, u)));
      }
      n.texts.push_back(text);
      n.mutableDisplay |= b.mutableDisplay;
    }
  // What may change a display is any statement that reads its name.
  for (size_t u = 0; u < summaries.size(); ++u)
    for (uint64_t r : summaries[u]->reads)
      if (auto it = nodeOf.find(r); it != nodeOf.end() && nodes[it->second].mutableDisplay)
        nodes[it->second].texts.push_back(mix(r, file_.units[u].hash));
  for (Node &n : nodes) {
    std::sort(n.reads.begin(), n.reads.end());
    n.reads.erase(std::unique(n.reads.begin(), n.reads.end()), n.reads.end());
  }
  // Tarjan's strongly connected components, iteratively: a component is
  // finished after every component it reads, so its fingerprint can hash
  // theirs. Chains of thousands of names must not recurse.
  std::vector<uint64_t> fingerprint(nodes.size(), 0);
  std::vector<uint32_t> stack;
  uint32_t counter = 0;
  struct Frame {
    uint32_t node, next;
  };
  std::vector<Frame> frames;
  for (uint32_t start = 0; start < nodes.size(); ++start) {
    if (nodes[start].index != UINT32_MAX)
      continue;
    frames.push_back({start, 0});
    while (!frames.empty()) {
      Frame &f = frames.back();
      Node &n = nodes[f.node];
      if (f.next == 0 && n.index == UINT32_MAX) {
        n.index = n.low = counter++;
        stack.push_back(f.node);
        n.onStack = true;
      }
      if (f.next < n.reads.size()) {
        uint32_t m = n.reads[f.next++];
        if (nodes[m].index == UINT32_MAX)
          frames.push_back({m, 0});
        else if (nodes[m].onStack)
          n.low = std::min(n.low, nodes[m].index);
        continue;
      }
      if (n.low == n.index) {
        // Pop the component; hash its members' text, then what they read
        // outside it (finished already).
        std::vector<uint32_t> members;
        uint32_t m;
        do {
          m = stack.back();
          stack.pop_back();
          nodes[m].onStack = false;
          members.push_back(m);
        } while (m != f.node);
        std::vector<uint64_t> parts, outside;
        for (uint32_t k : members) {
          parts.insert(parts.end(), nodes[k].texts.begin(), nodes[k].texts.end());
          for (uint32_t r : nodes[k].reads)
            if (std::find(members.begin(), members.end(), r) == members.end())
              outside.push_back(fingerprint[r]);
        }
        std::sort(parts.begin(), parts.end());
        std::sort(outside.begin(), outside.end());
        outside.erase(std::unique(outside.begin(), outside.end()), outside.end());
        uint64_t h = mix(0, members.size());
        for (uint64_t p : parts)
          h = mix(h, p);
        for (uint64_t p : outside)
          h = mix(h, p);
        for (uint32_t k : members)
          fingerprint[k] = h;
      }
      uint32_t low = n.low;
      frames.pop_back();
      if (!frames.empty())
        nodes[frames.back().node].low = std::min(nodes[frames.back().node].low, low);
    }
  }
  for (uint32_t k = 0; k < nodes.size(); ++k)
    fingerprints_[nodes[k].name] = fingerprint[k];
}

uint64_t MediatorKeys::key(size_t unit, uint32_t mediator) const {
  return mix(unitKeys_[unit], mediator);
}

} // namespace ivc
