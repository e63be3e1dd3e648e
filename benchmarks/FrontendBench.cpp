//===- FrontendBench.cpp - parse+lower throughput vs the bare parse -------===//
//
//   ivc-bench-frontend CORPUS_DIR [ROUNDS]
//
// Prints MB/s for tree-sitter's parse alone and for parse+lower of the same
// bytes, and the ratio. Goal (issue: foundation): lowering adds less than the
// parse costs, i.e. parse+lower takes under 2x the bare parse.
//
//===----------------------------------------------------------------------===//
#include "Corpus.h"

#include "ivc/frontend/Frontend.h"

#include <cstdio>
#include <cstdlib>

using namespace ivc;

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ivc-bench-frontend CORPUS_DIR [ROUNDS]\n");
    return 2;
  }
  int rounds = argc > 2 ? std::atoi(argv[2]) : 9;
  auto corpus = bench::loadCorpus(argv[1]);
  size_t bytes = bench::totalBytes(corpus);
  if (corpus.empty()) {
    std::fprintf(stderr, "no .py files under %s\n", argv[1]);
    return 2;
  }
  std::vector<std::shared_ptr<SourceFile>> sources;
  for (auto &f : corpus)
    sources.push_back(std::make_shared<SourceFile>(f.path, f.text));

  Frontend frontend;
  size_t ops = 0;
  auto parseOnly = [&] {
    for (auto &s : sources)
      frontend.parseTree(s->text());
  };
  auto parseAndLower = [&] {
    ops = 0;
    for (auto &s : sources)
      ops += frontend.parse(s)->module.numValues();
  };
  parseOnly(); // warm up caches and the allocator
  parseAndLower();
  auto t = bench::medianSeconds({parseOnly, parseAndLower}, rounds);
  double mb = double(bytes) / 1e6;
  std::printf("corpus: %zu files, %.2f MB, %zu IR values\n", corpus.size(), mb, ops);
  std::printf("%-28s %10s %10s\n", "", "MB/s", "ms");
  std::printf("%-28s %10.2f %10.2f\n", "tree-sitter parse", mb / t[0], t[0] * 1e3);
  std::printf("%-28s %10.2f %10.2f\n", "parse + lower", mb / t[1], t[1] * 1e3);
  std::printf("lowering adds %.2fx the parse time (goal: < 1.00x)\n", (t[1] - t[0]) / t[0]);
  return 0;
}
