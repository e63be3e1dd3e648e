//===- Suppressions.cpp ---------------------------------------------------===//
#include "Suppressions.h"

#include "ivc/frontend/Grammar.h"

#include <map>
#include <tree_sitter/api.h>

namespace ivc {

namespace {

// line -> codes or rule names it ignores ("*" for all).
using IgnoreMap = std::map<uint32_t, std::vector<std::string>>;

std::string trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  size_t e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

IgnoreMap scanComments(const ParsedFile &file) {
  IgnoreMap map;
  const std::string &text = file.source->text();
  TSNode root = ts_tree_root_node(file.tree.get());
  size_t pos = 0;
  while ((pos = text.find("ivc:", pos)) != std::string::npos) {
    size_t at = pos;
    pos += 4;
    TSNode n = ts_node_descendant_for_byte_range(root, uint32_t(at), uint32_t(at + 1));
    if (Grammar::python().sym(n) != Sym::comment)
      continue; // "ivc:" inside a string or code
    std::string_view rest = std::string_view(text).substr(pos);
    rest = rest.substr(0, rest.find_first_of("\r\n"));
    size_t k = rest.find_first_not_of(" \t");
    if (k == std::string_view::npos || rest.substr(k, 6) != "ignore")
      continue;
    rest = rest.substr(k + 6);
    uint32_t line = file.source->position(uint32_t(at)).line;
    auto &codes = map[line];
    if (rest.empty() || rest[0] != '[') {
      codes.push_back("*");
      continue;
    }
    size_t close = rest.find(']');
    std::string_view list = rest.substr(1, close == std::string_view::npos ? rest.size() - 1
                                                                           : close - 1);
    while (!list.empty()) {
      size_t comma = list.find(',');
      codes.push_back(trim(list.substr(0, comma)));
      if (comma == std::string_view::npos)
        break;
      list = list.substr(comma + 1);
    }
  }
  return map;
}

bool ignores(const IgnoreMap &map, uint32_t line, const Diagnostic &d) {
  auto it = map.find(line);
  if (it == map.end())
    return false;
  for (const std::string &c : it->second)
    if (c == "*" || c == d.info().code || c == d.info().name)
      return true;
  return false;
}

} // namespace

std::vector<bool> findSuppressed(const Analysis &a) {
  std::vector<bool> out(a.diagnostics.size(), false);
  IgnoreMap map = scanComments(*a.parsed);
  if (map.empty())
    return out;
  const auto &traces = a.parsed->traces;
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic &d = a.diagnostics[i];
    if (!d.file && ignores(map, d.range.begin.line, d)) {
      out[i] = true;
      continue;
    }
    // The `with` line of a trace that contains it, or whose mediators reach it.
    for (const TraceRegion &t : traces) {
      bool concerns = !d.file && t.range.begin.offset <= d.range.begin.offset &&
                      d.range.end.offset <= t.range.end.offset;
      for (const MediatorFacts &f : a.facts[t.index])
        for (const Reason &r : f.reasons)
          concerns |= r.range == d.range && r.id == d.id;
      if (concerns && ignores(map, t.headerRange.begin.line, d)) {
        out[i] = true;
        break;
      }
    }
  }
  return out;
}

} // namespace ivc
