//===- TraceRegion.h - The code nnsight will run against a model ---------===//
//
// A trace region is a `with` statement whose context expression calls one of
// the trace methods (`.trace(...)`, `.generate(...)`, ...) on any receiver.
// A mediator is one unit nnsight runs: each `tracer.invoke(...)` body, or the
// whole trace body when it has no invoke. When a trace with invokes also has
// statements outside them, those form one more mediator of kind Body.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_FRONTEND_TRACEREGION_H
#define IVC_FRONTEND_TRACEREGION_H

#include "ivc/frontend/SourceFile.h"
#include "ivc/ir/IR.h"

#include <string>
#include <vector>

namespace ivc {

enum class MediatorKind : uint8_t { Invoke, Body };

struct Mediator {
  uint32_t index = 0;   // within its trace region
  MediatorKind kind = MediatorKind::Body;
  ir::Op *withOp = nullptr;   // the invoke's `with`, or the trace's `with` for Body
  ir::Op *call = nullptr;     // the `.invoke(...)` call (null for Body)
  ir::Region *body = nullptr;
  /// Ops evaluated before the body in the enclosing block: the invoke's
  /// arguments (empty for Body).
  std::span<ir::Op *> header;
  SourceRange range;          // the whole with statement (invoke) or the trace body
  SourceRange bodyRange;      // the statements of the body
};

struct TraceRegion {
  uint32_t index = 0;
  int parent = -1;            // enclosing trace region (a session), or -1
  std::string method;         // trace, generate, session, scan, edit, ...
  std::string receiver;       // source text of the receiver (`model`, `self.lm`)
  std::string tracerName;     // the `as` binding, or empty
  ir::Op *withOp = nullptr;
  ir::Op *call = nullptr;     // the `.trace(...)` call
  ir::Op *receiverOp = nullptr;
  SourceRange range;          // the whole with statement
  SourceRange headerRange;    // `with ... :` line(s)
  SourceRange callRange;
  SourceRange bodyRange;
  std::vector<Mediator> mediators;
};

struct FrontendOptions {
  std::vector<std::string> traceMethods = {"trace", "generate", "session", "scan", "edit"};
  std::vector<std::string> invokeMethods = {"invoke"};
};

} // namespace ivc

#endif
