//===- FuzzAnalysis.cpp - the whole analysis on arbitrary bytes ------------===//
//
// Parse (the whole file, and only what trace regions reach), lower, resolve,
// classify and print the plan of any input without crashing, hanging or
// tripping a sanitizer; every diagnostic's range must lie inside the file.
//
//===----------------------------------------------------------------------===//
#include "ivc/engine/Engine.h"
#include "ivc/plan/Plan.h"

#include <cstdlib>

using namespace ivc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Engine engine;
  std::string text(reinterpret_cast<const char *>(data), size);
  for (bool reachable : {false, true}) {
    AnalysisOptions options;
    options.reachableCodeOnly = reachable;
    auto analysis = engine.analyze(std::make_shared<SourceFile>("fuzz.py", text), options);
    for (const Diagnostic &d : analysis->diagnostics)
      if (!d.file && (d.range.begin.offset > d.range.end.offset || d.range.end.offset > size))
        std::abort();
    std::string plan = planText(*analysis);
    if (plan.empty())
      std::abort();
  }
  return 0;
}
