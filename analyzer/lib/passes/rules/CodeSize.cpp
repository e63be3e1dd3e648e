//===- CodeSize.cpp - Code too long to compile in the server (IVC312) ------===//
//
// A runtime compiles a FAST mediator's code in the server's process, in one
// call that holds the interpreter, and CPython folds constants as it does:
// `"ab" * 2048` in ten bytes of source becomes a 4 KiB string. A mediator
// whose code (its body and the definitions it reaches) is longer than
// MaxFastCodeBytes is ISOLATE; research code is a small fraction of that.
//
//===----------------------------------------------------------------------===//
#include "CostModel.h"
#include "Rules.h"

#include <algorithm>

namespace ivc::rules {

namespace {

/// The bytes of source a runtime compiles for the mediator: its body (a
/// trace body without its invokes, which are mediators of their own) and
/// every function and class it reaches, each once (not those nested in
/// another definition).
size_t codeBytes(const MediatorContext &m) {
  const SourceRange &body = m.mediator.bodyRange;
  size_t bytes = body.end.offset - body.begin.offset;
  if (m.mediator.kind == MediatorKind::Body)
    for (const Mediator &inv : m.trace.mediators)
      if (inv.kind == MediatorKind::Invoke && body.contains(inv.range.begin.offset))
        bytes -= std::min<size_t>(bytes, inv.range.end.offset - inv.range.begin.offset);
  // Definitions by file and offset, to count those nested in another once.
  std::vector<std::pair<const ModuleContext *, SourceRange>> definitions;
  for (const CodeUnit &unit : m.code.units)
    if (unit.op && (unit.kind == CodeUnit::Kind::Function || unit.kind == CodeUnit::Kind::Class))
      definitions.push_back({unit.context, unit.op->range});
  std::sort(definitions.begin(), definitions.end(), [](const auto &a, const auto &b) {
    return std::pair(a.first, a.second.begin.offset) < std::pair(b.first, b.second.begin.offset);
  });
  const ModuleContext *file = nullptr;
  uint32_t coveredTo = 0;
  for (const auto &[context, r] : definitions) {
    if (context != file)
      file = context, coveredTo = 0;
    if (r.end.offset <= coveredTo)
      continue; // nested in the one before
    bytes += r.end.offset - std::max(r.begin.offset, coveredTo);
    coveredTo = r.end.offset;
  }
  return bytes;
}

} // namespace

void checkCodeSize(MediatorContext &m) {
  size_t bytes = codeBytes(m);
  if (bytes <= cost::MaxFastCodeBytes)
    return;
  const CodeUnit &body = m.code.units[0];
  SourceRange at = m.mediator.kind == MediatorKind::Invoke ? m.mediator.withOp->range
                                                           : m.trace.headerRange;
  std::string subject = m.subject(body);
  std::string why = "is " + std::to_string(bytes) + " bytes long; a runtime compiles at most " +
                    std::to_string(cost::MaxFastCodeBytes) + " in the server's process";
  m.report(Tier::Isolate, body, at, DiagId::UnboundedCost, {subject, "its code", why});
}

} // namespace ivc::rules
