//===- TextEmitter.h - clang-style diagnostics with carets and fix-its ---===//
#ifndef IVC_DIAG_TEXTEMITTER_H
#define IVC_DIAG_TEXTEMITTER_H

#include "ivc/diag/Diagnostic.h"
#include "ivc/frontend/SourceFile.h"

#include "llvm/Support/raw_ostream.h"

namespace ivc {

struct TextEmitterOptions {
  bool color = false;
  bool showCode = true; // append [IVCnnn] to each message
};

/// Prints `file:line:col: severity: message [CODE]`, the source line, a caret
/// with a range underline, fix-it text under it, then each note the same way.
/// `mainFile` is the analyzed file; a diagnostic or note in another file
/// (Diagnostic::file) prints that file's lines.
void emitText(llvm::raw_ostream &os, const SourceFile &mainFile, const Diagnostic &d,
              const TextEmitterOptions &opts);

} // namespace ivc

#endif
