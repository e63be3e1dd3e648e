//===- Diagnostic.cpp -----------------------------------------------------===//
#include "ivc/diag/Diagnostic.h"

#include <array>

namespace ivc {

namespace {
constexpr std::array<DiagInfo, size_t(DiagId::NumDiags)> table = {{
#define IVC_DIAG(Enum, Code, Sev, Name, FixItFlag, Summary, Message)                               \
  {DiagId::Enum, Code, Severity::Sev, Name, FixItFlag, Summary, Message},
#include "ivc/diag/Diagnostics.def"
}};
} // namespace

std::string_view severityName(Severity s) {
  switch (s) {
  case Severity::Note: return "note";
  case Severity::Remark: return "remark";
  case Severity::Warning: return "warning";
  case Severity::Error: return "error";
  }
  return "?";
}

const DiagInfo &diagInfo(DiagId id) { return table[size_t(id)]; }

std::span<const DiagInfo> allDiags() { return table; }

const DiagInfo *findDiag(std::string_view codeOrName) {
  for (const DiagInfo &d : table)
    if (d.code == codeOrName || d.name == codeOrName)
      return &d;
  return nullptr;
}

std::string formatMessage(std::string_view tmpl, std::initializer_list<std::string_view> args) {
  std::string out;
  out.reserve(tmpl.size() + 32);
  for (size_t i = 0; i < tmpl.size(); ++i) {
    char c = tmpl[i];
    if ((c == '{' || c == '}') && i + 1 < tmpl.size() && tmpl[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c == '{') {
      size_t close = tmpl.find('}', i);
      if (close != std::string_view::npos) {
        size_t index = 0;
        bool digits = close > i + 1;
        for (size_t k = i + 1; k < close; ++k) {
          digits &= tmpl[k] >= '0' && tmpl[k] <= '9';
          index = index * 10 + size_t(tmpl[k] - '0');
        }
        if (digits && index < args.size()) {
          out += *(args.begin() + index);
          i = close;
          continue;
        }
      }
    }
    out += c;
  }
  return out;
}

Diagnostic makeDiagnostic(DiagId id, SourceRange range,
                          std::initializer_list<std::string_view> args) {
  const DiagInfo &info = diagInfo(id);
  return Diagnostic{id, info.severity, range, formatMessage(info.message, args), {}, {}, nullptr};
}

} // namespace ivc
