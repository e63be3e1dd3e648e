//===- ReachableParse.cpp - Parse only what trace regions can reach -------===//
//
// Research scripts carry plotting, data loading and evaluation code that no
// trace region calls, and parsing it is most of what a check costs. The
// skeleton (Skeleton.h) tells which top-level statements may hold a trace
// region and which names each may bind. Those holding traces are kept, then,
// transitively, every statement that may bind a name a kept one spells.
// tree-sitter parses the kept statements alone (StatementParse.cpp): a
// skipped statement binds nothing the analysis reads, so the analysis is the
// same; only syntax errors inside skipped statements go unreported. When the
// kept code has a syntax error, the whole file is parsed instead.
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

  size_t prefix = futureImportPrefix(sk);
  std::vector<bool> keep(st.size(), false);
  std::vector<uint32_t> work;
  for (uint32_t i = 0; i < st.size(); ++i)
    if (st[i].holdsTrace || st[i].alwaysParse || i < prefix) {
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

constexpr uint32_t MaxIncludedRanges = 64;

} // namespace

std::unique_ptr<ParsedFile> Frontend::parseReachable(std::shared_ptr<const SourceFile> source) {
  std::string_view text = source->text();
  Skeleton sk = scanSkeleton(text, options_.traceMethods);
  if (!sk.complete)
    return parse(std::move(source));
  std::vector<bool> keep = statementsToParse(text, sk);
  uint32_t skipped = 0;
  for (size_t i = 0; i < sk.statements.size(); ++i)
    if (!keep[i])
      skipped += sk.statements[i].end - sk.statements[i].begin;
  if (skipped == 0)
    return parse(std::move(source));
  // tree-sitter looks up the included range of every token from the first
  // range on, so thousands of runs (a notebook export of as many cells)
  // cost their square. Then the whole file is parsed first; it answers the
  // same wherever it has no syntax error.
  uint32_t runs = 0;
  for (size_t i = 0; i < keep.size(); ++i)
    runs += keep[i] && (i == 0 || !keep[i - 1]);
  if (runs > MaxIncludedRanges) {
    auto whole = parse(source);
    if (!ts_node_has_error(ts_tree_root_node(whole->tree.get())))
      return whole;
  }
  auto file = parseStatements(source, sk, keep, nullptr, {});
  if (!file)
    return parse(std::move(source));
  file->skippedBytes = skipped;
  return file;
}

} // namespace ivc
