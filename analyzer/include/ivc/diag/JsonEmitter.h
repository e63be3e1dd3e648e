//===- JsonEmitter.h - Diagnostics as JSON (also used inside plans) ------===//
#ifndef IVC_DIAG_JSONEMITTER_H
#define IVC_DIAG_JSONEMITTER_H

#include "ivc/diag/Diagnostic.h"

#include "llvm/Support/JSON.h"

namespace ivc {

/// `s` as valid UTF-8 for a JSON string: source text and names taken from it
/// may hold any bytes; invalid sequences become U+FFFD.
std::string utf8(std::string_view s);

/// {"start": {"line", "column", "offset"}, "end": {...}}: 1-based line and
/// byte column, 0-based byte offset.
llvm::json::Value rangeJson(const SourceRange &r);

/// One diagnostic: code, name, severity, message, range, notes, fixits, and
/// `file` when it is not `main`.
llvm::json::Value diagnosticJson(const Diagnostic &d, const SourceFile &main, bool suppressed);

} // namespace ivc

#endif
