//===- Printer.h - The stable text form of ivc's IR ----------------------===//
#ifndef IVC_IR_PRINTER_H
#define IVC_IR_PRINTER_H

#include "ivc/frontend/TraceRegion.h"
#include "ivc/ir/IR.h"

#include "llvm/Support/raw_ostream.h"

#include <vector>

namespace ivc::ir {

struct PrintOptions {
  bool byteOffsets = false; // append [begin..end) byte offsets to every location
};

/// Prints `"text"` with C-style escapes for quotes, backslashes and control
/// bytes; `bytes` (or text that is not UTF-8) also escapes bytes >= 0x80.
void printQuoted(llvm::raw_ostream &os, std::string_view text, bool bytes = false);
void printRange(llvm::raw_ostream &os, const SourceRange &r, const PrintOptions &opts);

void printOp(llvm::raw_ostream &os, const Op &op, unsigned indent, const PrintOptions &opts);
void printTraces(llvm::raw_ostream &os, const std::vector<TraceRegion> &traces,
                 const PrintOptions &opts);

} // namespace ivc::ir

#endif
