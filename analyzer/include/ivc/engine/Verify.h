//===- Verify.h - Expected diagnostics written in the source (-verify) ---===//
//
// In the manner of `clang -verify`, a test file states the diagnostics it
// expects in comments:
//
//   x = eval(s)  # expected-error {{prohibited builtin 'eval'}}
//   # expected-warning@+1 {{cannot cross a process boundary}}
//   # expected-remark@-2 2 {{...}}      (a count: two such diagnostics)
//   # expected-no-diagnostics
//
// `@+N`/`@-N` are relative to the comment's line, `@N` absolute; the text is
// a substring of the message. Errors and warnings are always checked; remarks
// and notes only in a file that expects at least one of that kind. The check
// fails on any expected diagnostic not seen and any seen but not expected.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_ENGINE_VERIFY_H
#define IVC_ENGINE_VERIFY_H

#include "ivc/engine/Engine.h"

#include <string>

namespace ivc {

struct VerifyResult {
  bool ok = true;
  std::string report; // clang-style, empty when ok
};

VerifyResult verifyDiagnostics(const Analysis &analysis);

} // namespace ivc

#endif
