//===- Corpus.cpp ---------------------------------------------------------===//
#include "Corpus.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace ivc::bench {

std::vector<CorpusFile> loadCorpus(const std::string &dir) {
  std::vector<CorpusFile> files;
  for (auto &entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".py")
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    files.push_back({entry.path().string(), ss.str()});
  }
  std::sort(files.begin(), files.end(),
            [](const CorpusFile &a, const CorpusFile &b) { return a.path < b.path; });
  return files;
}

size_t totalBytes(const std::vector<CorpusFile> &files) {
  size_t n = 0;
  for (const CorpusFile &f : files)
    n += f.text.size();
  return n;
}

std::vector<double> medianSeconds(const std::vector<std::function<void()>> &fns, int rounds) {
  std::vector<std::vector<double>> samples(fns.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t i = 0; i < fns.size(); ++i) {
      auto start = std::chrono::steady_clock::now();
      fns[i]();
      std::chrono::duration<double> d = std::chrono::steady_clock::now() - start;
      samples[i].push_back(d.count());
    }
  std::vector<double> medians;
  for (auto &s : samples) {
    std::sort(s.begin(), s.end());
    medians.push_back(s[s.size() / 2]);
  }
  return medians;
}

} // namespace ivc::bench
