//===- FuzzFrontend.cpp - parse + lower + print arbitrary bytes -----------===//
//
// Any input must parse, lower and print without crashing, leaking or
// tripping a sanitizer, and every op's range must lie inside the file.
//
//===----------------------------------------------------------------------===//
#include "ivc/frontend/Frontend.h"
#include "ivc/ir/Printer.h"
#include "ivc/support/Stack.h"

#include <cstdlib>

using namespace ivc;

static void checkRanges(const ir::Op &op, size_t size) {
  if (op.range.begin.offset > op.range.end.offset || op.range.end.offset > size)
    std::abort();
  for (const ir::Region &r : op.regions)
    for (const ir::Op *child : r.ops)
      checkRanges(*child, size);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Frontend frontend;
  std::string text(reinterpret_cast<const char *>(data), size);
  // Lowering and printing recurse as deep as the code nests, as the
  // analysis does: they need its stack.
  runWithAnalysisStack([&] {
    auto file = frontend.parse(std::make_shared<SourceFile>("fuzz.py", std::move(text)));
    checkRanges(*file->module.root(), size);
    std::string out;
    llvm::raw_string_ostream os(out);
    ir::printTraces(os, file->traces, {});
    ir::printOp(os, *file->module.root(), 0, {});
  });
  return 0;
}
