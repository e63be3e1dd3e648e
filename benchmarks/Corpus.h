//===- Corpus.h - Loading a benchmark corpus and timing runs -------------===//
#ifndef IVC_BENCHMARKS_CORPUS_H
#define IVC_BENCHMARKS_CORPUS_H

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ivc::bench {

struct CorpusFile {
  std::string path;
  std::string text;
};

/// Every *.py file under `dir`, sorted by path.
std::vector<CorpusFile> loadCorpus(const std::string &dir);
size_t totalBytes(const std::vector<CorpusFile> &files);

/// Median seconds of `rounds` runs of each function; runs alternate between the
/// functions so that drift on a shared machine affects them alike.
std::vector<double> medianSeconds(const std::vector<std::function<void()>> &fns, int rounds);

} // namespace ivc::bench

#endif
