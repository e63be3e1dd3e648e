//===- CodeActions.h - Quick fixes: fix-its and suppressions -------------===//
#ifndef IVC_LIB_LSP_CODEACTIONS_H
#define IVC_LIB_LSP_CODEACTIONS_H

#include "Capabilities.h"
#include "Protocol.h"
#include "Scheduler.h"

#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace ivc::lsp {

/// The edit that silences `code` on `line`: appends `  # ivc: ignore[CODE]`,
/// or adds CODE to the list of an ignore comment already there. Nothing when
/// a comment cannot go there (the line ends inside a string or with a
/// backslash continuation) or the line already ignores the code.
struct SuppressionEdit {
  uint32_t begin = 0, end = 0; // bytes replaced (equal: an insertion)
  std::string text;
  std::string comment; // the ignore comment as it will read, for the title
};
std::optional<SuppressionEdit> suppressionEdit(const ParsedFile &file, uint32_t line,
                                               std::string_view code);

/// textDocument/codeAction: for each diagnostic on the requested lines, a
/// quick fix per fix-it and one that suppresses it.
llvm::json::Array codeActions(const AnalysisResult &r, const CodeActionParams &params,
                              const ClientCapabilities &client);

} // namespace ivc::lsp

#endif
