//===- TestFiles.h - The Python files tests run over ---------------------===//
#ifndef IVC_UNITTESTS_TESTFILES_H
#define IVC_UNITTESTS_TESTFILES_H

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace ivc::test {

inline std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Every *.py file under `dirs`, in a stable order.
inline std::vector<std::filesystem::path> pythonFiles(std::initializer_list<const char *> dirs) {
  std::vector<std::filesystem::path> files;
  for (const char *dir : dirs)
    for (const auto &e : std::filesystem::recursive_directory_iterator(dir))
      if (e.path().extension() == ".py")
        files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace ivc::test

#endif
