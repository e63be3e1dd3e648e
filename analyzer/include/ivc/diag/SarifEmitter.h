//===- SarifEmitter.h - SARIF 2.1.0 for code scanning --------------------===//
//
// One run with every rule of the diagnostics table (stable ruleId and
// ruleIndex, short and full descriptions from docs/diagnostics, helpUri),
// results with repository-relative URIs, UTF-16 columns, related locations for
// notes, fixes, in-source suppressions and partialFingerprints that survive
// line moves.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_DIAG_SARIFEMITTER_H
#define IVC_DIAG_SARIFEMITTER_H

#include "ivc/diag/Diagnostic.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <vector>

namespace ivc {

struct SarifFileResult {
  const SourceFile *file;
  std::string uri; // repository-relative path with forward slashes
  std::vector<Diagnostic> diagnostics;
  std::vector<bool> suppressed;
};

/// `unchecked`: inputs that could not be read or configured; the run's
/// invocation then says it did not succeed.
llvm::json::Value sarifLog(const std::vector<SarifFileResult> &files, std::string_view version,
                           std::string_view srcRoot, const std::vector<std::string> &unchecked = {});

} // namespace ivc

#endif
