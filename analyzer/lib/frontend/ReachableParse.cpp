//===- ReachableParse.cpp - Parse only what trace regions can reach -------===//
//
// Research scripts carry plotting, data loading and evaluation code that no
// trace region calls, and parsing it is most of what a check costs. The
// skeleton (Skeleton.h) tells which top-level statements may hold a trace
// region and which names each may bind. Those holding traces are kept, then,
// transitively, every statement that may bind a name a kept one spells.
// tree-sitter parses the kept statements alone (included ranges) and they are
// lowered as usual: a skipped statement binds nothing the analysis reads, so
// the analysis is the same; only syntax errors inside skipped statements go
// unreported. When the kept code has a syntax error, or tree-sitter's
// statements disagree with the skeleton's, the whole file is parsed instead.
//
//===----------------------------------------------------------------------===//
#include "ivc/frontend/Frontend.h"

#include "Skeleton.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <tree_sitter/api.h>

namespace ivc {

namespace {

std::vector<bool> statementsToParse(std::string_view text, const Skeleton &sk) {
  const std::vector<SkeletonStatement> &st = sk.statements;
  llvm::DenseMap<uint64_t, llvm::SmallVector<uint32_t, 1>> binders;
  for (uint32_t i = 0; i < st.size(); ++i)
    for (uint64_t h : st[i].binds)
      binders[h].push_back(i);

  size_t lastFuture = 0;
  for (uint32_t i = 0; i < st.size(); ++i)
    if (st[i].futureImport)
      lastFuture = i + 1;
  std::vector<bool> keep(st.size(), false);
  std::vector<uint32_t> work;
  for (uint32_t i = 0; i < st.size(); ++i)
    if (st[i].holdsTrace || st[i].alwaysParse || i < lastFuture) {
      keep[i] = true;
      work.push_back(i);
    }
  llvm::DenseSet<uint64_t> looked;
  std::vector<uint64_t> names;
  while (!work.empty()) {
    uint32_t i = work.back();
    work.pop_back();
    names.clear();
    namesSpelled(text, st[i], names);
    for (uint64_t h : names) {
      if (!looked.insert(h).second)
        continue;
      auto it = binders.find(h);
      if (it == binders.end())
        continue;
      for (uint32_t j : it->second)
        if (!keep[j]) {
          keep[j] = true;
          work.push_back(j);
        }
    }
  }
  return keep;
}

// Every top-level node must lie within one kept statement: otherwise the
// skeleton split the file where Python does not.
bool agreesWithSkeleton(TSNode root, const std::vector<TSRange> &statements) {
  size_t k = 0;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode n = ts_node_named_child(root, i);
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    if (ts_node_is_extra(n)) // comments between kept statements
      continue;
    while (k < statements.size() && statements[k].end_byte <= b)
      ++k;
    if (k == statements.size() || b < statements[k].start_byte || e > statements[k].end_byte) {
      return false;
    }
  }
  return true;
}

} // namespace

std::unique_ptr<ParsedFile> Frontend::parseReachable(std::shared_ptr<const SourceFile> source) {
  std::string_view text = source->text();
  Skeleton sk = scanSkeleton(text, options_.traceMethods);
  if (!sk.complete)
    return parse(std::move(source));
  std::vector<bool> keep = statementsToParse(text, sk);

  std::vector<TSRange> kept, ranges; // the kept statements, and their runs
  uint32_t skipped = 0;
  for (size_t i = 0; i < sk.statements.size(); ++i) {
    const SkeletonStatement &s = sk.statements[i];
    if (!keep[i]) {
      skipped += s.end - s.begin;
      continue;
    }
    TSRange r{{s.row, 0}, {s.endRow, s.endColumn}, s.begin, s.end};
    kept.push_back(r);
    if (i > 0 && keep[i - 1]) {
      ranges.back().end_point = r.end_point;
      ranges.back().end_byte = r.end_byte;
    } else {
      ranges.push_back(r);
    }
  }
  if (skipped == 0)
    return parse(std::move(source));

  auto file = std::make_unique<ParsedFile>();
  file->source = source;
  if (ranges.empty()) {
    file->tree = parseTree(std::string_view());
  } else {
    ts_parser_set_included_ranges(parser_, ranges.data(), uint32_t(ranges.size()));
    file->tree = parseTree(text);
    ts_parser_set_included_ranges(parser_, nullptr, 0);
  }
  TSNode root = ts_tree_root_node(file->tree.get());
  if (ts_node_has_error(root) || !agreesWithSkeleton(root, kept))
    return parse(std::move(source));
  file->skippedBytes = skipped;
  lower(*file, nullptr);
  return file;
}

} // namespace ivc
