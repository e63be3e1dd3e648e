//===- Diagnostic.h - Diagnostics, notes and fix-its ---------------------===//
#ifndef IVC_DIAG_DIAGNOSTIC_H
#define IVC_DIAG_DIAGNOSTIC_H

#include "ivc/frontend/SourceFile.h"

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ivc {

enum class DiagId : uint16_t {
#define IVC_DIAG(Enum, Code, Severity, Name, FixIt, Summary, Message) Enum,
#include "ivc/diag/Diagnostics.def"
  NumDiags
};

enum class Severity : uint8_t { Note, Remark, Warning, Error };
std::string_view severityName(Severity s);

/// One row of the diagnostics table.
struct DiagInfo {
  DiagId id;
  std::string_view code;
  Severity severity;
  std::string_view name;
  bool hasFixIt;
  std::string_view summary;
  std::string_view message;
};
const DiagInfo &diagInfo(DiagId id);
std::span<const DiagInfo> allDiags();
/// Looks a rule up by code ("IVC101") or name ("prohibited-module").
const DiagInfo *findDiag(std::string_view codeOrName);

struct FixIt {
  SourceRange range;       // empty range: insertion
  std::string replacement;
  std::string title;       // what the fix does, for code actions
};

struct DiagNote {
  SourceRange range;
  std::string message;
  const SourceFile *file = nullptr; // null: the diagnostic's own file
};

struct Diagnostic {
  DiagId id;
  Severity severity;
  SourceRange range;
  std::string message;
  std::vector<DiagNote> notes;
  std::vector<FixIt> fixIts;
  /// The file the range is in when it is not the analyzed file (a function
  /// from a capture manifest); null for the analyzed file.
  const SourceFile *file = nullptr;

  const DiagInfo &info() const { return diagInfo(id); }
};

/// Fills a message template: "{N}" becomes args[N]; "{{" and "}}" are braces.
std::string formatMessage(std::string_view tmpl, std::initializer_list<std::string_view> args);

/// Builds a diagnostic from the table entry for `id`.
Diagnostic makeDiagnostic(DiagId id, SourceRange range,
                          std::initializer_list<std::string_view> args = {});

} // namespace ivc

#endif
