//===- AnalysisBench.cpp - The whole analysis vs the parse floor ----------===//
//
//   ivc-bench-analysis CORPUS_DIR [ROUNDS]
//
// Measures, over the same files in one run: tree-sitter's bare parse; the
// whole analysis (parse, lower, resolve, every pass) as `ivc check` runs it;
// and CPython parsing the same files and walking every node (ast.parse +
// ast.walk, in /usr/bin/python3). Goals (issue: classifier and plan): the
// analysis within 1.5x of the bare parse, at least 5x faster than CPython's
// parse-and-walk, and under 10 us per mediator for resolution + classification.
//
//===----------------------------------------------------------------------===//
#include "Corpus.h"

#include "ivc/engine/Engine.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace ivc;

namespace {

// CPython's ast.parse + ast.walk over the corpus: the median seconds of `rounds`.
double cpythonParseAndWalk(const std::string &dir, int rounds) {
  std::string script =
      "import ast, pathlib, sys, time\n"
      "files = [p.read_bytes() for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py'))]\n"
      "times = []\n"
      "for _ in range(int(sys.argv[2])):\n"
      "    t = time.perf_counter()\n"
      "    for src in files:\n"
      "        for node in ast.walk(ast.parse(src)):\n"
      "            pass\n"
      "    times.append(time.perf_counter() - t)\n"
      "times.sort()\n"
      "print(times[len(times) // 2])\n";
  std::string path = "/tmp/ivc-bench-ast.py";
  if (FILE *f = std::fopen(path.c_str(), "w")) {
    std::fputs(script.c_str(), f);
    std::fclose(f);
  }
  std::string cmd = "/usr/bin/python3 " + path + " '" + dir + "' " + std::to_string(rounds);
  FILE *p = popen(cmd.c_str(), "r");
  if (!p)
    return -1;
  double seconds = -1;
  if (std::fscanf(p, "%lf", &seconds) != 1)
    seconds = -1;
  pclose(p);
  return seconds;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: ivc-bench-analysis CORPUS_DIR [ROUNDS]\n");
    return 2;
  }
  int rounds = argc > 2 ? std::atoi(argv[2]) : 7;
  auto corpus = bench::loadCorpus(argv[1]);
  if (corpus.empty()) {
    std::fprintf(stderr, "no .py files under %s\n", argv[1]);
    return 2;
  }
  double mb = double(bench::totalBytes(corpus)) / 1e6;
  std::vector<std::shared_ptr<SourceFile>> sources;
  for (auto &f : corpus)
    sources.push_back(std::make_shared<SourceFile>(f.path, f.text));

  Frontend frontend;
  Engine engine;
  AnalysisOptions options;
  size_t mediators = 0;
  double resolveAndPasses = 0;
  auto parse = [&] {
    for (auto &s : sources)
      frontend.parseTree(s->text());
  };
  auto analyze = [&] {
    mediators = 0;
    resolveAndPasses = 0;
    for (auto &s : sources) {
      auto a = engine.analyze(s, options);
      for (auto &t : a->facts)
        mediators += t.size();
      resolveAndPasses += a->timings.resolve + a->timings.passes;
    }
  };
  parse();
  analyze(); // warm-up: allocator, catalog, caches
  auto t = bench::medianSeconds({parse, analyze}, rounds);
  double cpython = cpythonParseAndWalk(argv[1], rounds);

  std::printf("corpus: %zu files, %.2f MB, %zu mediators\n", corpus.size(), mb, mediators);
  std::printf("%-36s %10s %10s\n", "", "MB/s", "ms");
  std::printf("%-36s %10.2f %10.2f\n", "tree-sitter parse", mb / t[0], t[0] * 1e3);
  std::printf("%-36s %10.2f %10.2f\n", "ivc: whole analysis", mb / t[1], t[1] * 1e3);
  if (cpython > 0)
    std::printf("%-36s %10.2f %10.2f\n", "CPython ast.parse + ast.walk", mb / cpython,
                cpython * 1e3);
  std::printf("analysis / bare parse: %.2fx (goal: <= 1.5x)\n", t[1] / t[0]);
  if (cpython > 0)
    std::printf("CPython parse+walk / analysis: %.2fx (goal: >= 5x)\n", cpython / t[1]);
  std::printf("resolution + classification: %.2f us per mediator (goal: < 10 us)\n",
              resolveAndPasses / double(mediators) * 1e6);
  return 0;
}
