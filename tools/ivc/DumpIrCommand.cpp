//===- DumpIrCommand.cpp - `ivc dump-ir FILE` ----------------------------===//
#include "Cli.h"

#include "ivc/diag/TextEmitter.h"
#include "ivc/frontend/Frontend.h"
#include "ivc/ir/Printer.h"

namespace ivc::cli {

int runDumpIr(const Options &opts) {
  if (opts.inputs.size() != 1) {
    llvm::errs() << "ivc: error: dump-ir takes exactly one file\n";
    return UsageOrIO;
  }
  std::optional<std::string> text = readFile(opts.inputs[0]);
  if (!text)
    return UsageOrIO;
  Frontend frontend;
  auto file = frontend.parse(std::make_shared<SourceFile>(opts.inputs[0], std::move(*text)));
  ir::PrintOptions printOpts;
  printOpts.byteOffsets = opts.byteOffsets;
  ir::printTraces(llvm::outs(), file->traces, printOpts);
  ir::printOp(llvm::outs(), *file->module.root(), 0, printOpts);
  llvm::outs().flush();

  TextEmitterOptions textOpts;
  textOpts.color = opts.color.value_or(llvm::errs().has_colors());
  for (const Diagnostic &d : file->diagnostics)
    emitText(llvm::errs(), *file->source, d, textOpts);
  return file->hasErrors() ? Findings : Clean;
}

} // namespace ivc::cli
