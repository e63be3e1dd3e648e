//===- AnalysisDump.h - An analysis as text, for comparing two ------------===//
#ifndef IVC_UNITTESTS_ANALYSISDUMP_H
#define IVC_UNITTESTS_ANALYSISDUMP_H

#include "ivc/diag/JsonEmitter.h"
#include "ivc/engine/Engine.h"
#include "ivc/plan/Plan.h"

#include <string>

namespace ivc::test {

// The plan (every mediator's facts and reasons) and every diagnostic with its
// notes, fix-its and byte offsets.
inline std::string dumpAnalysis(const Analysis &a) {
  std::string out = planText(a);
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic &d = a.diagnostics[i];
    out += printJson(diagnosticJson(d, a.source(), a.suppressed[i]));
    out += " @" + std::to_string(d.range.begin.offset) + ".." + std::to_string(d.range.end.offset);
    for (const DiagNote &n : d.notes)
      out += " note@" + std::to_string(n.range.begin.offset) + ":" + n.message;
    for (const FixIt &f : d.fixIts)
      out += " fix@" + std::to_string(f.range.begin.offset) + ".." +
             std::to_string(f.range.end.offset) + "=" + f.replacement;
    out += '\n';
  }
  return out;
}

} // namespace ivc::test

#endif
