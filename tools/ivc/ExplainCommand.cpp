//===- ExplainCommand.cpp - `ivc explain FILE:LINE` -----------------------===//
//
// Says in prose what ivc decided for the mediator(s) at a line and why: the
// tier, each reason with the path that reaches it, what the mediator touches,
// and how to fix each rule it broke (from docs/diagnostics).
//
//===----------------------------------------------------------------------===//
#include "Cli.h"
#include "Inputs.h"

#include "ivc/diag/RuleDocs.h"
#include "ivc/engine/Engine.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>

namespace ivc::cli {

namespace {

std::string tierProse(Tier t) {
  switch (t) {
  case Tier::Fast:
    return "FAST: every operation is confirmed safe, so it runs in the server process";
  case Tier::Isolate:
    return "ISOLATE: it runs in a sandboxed worker, because";
  case Tier::Reject:
    return "REJECT: it never runs, because";
  }
  return "";
}

std::string lines(const SourceRange &r) {
  return r.begin.line == r.end.line ? "line " + std::to_string(r.begin.line + 1)
                                    : "lines " + std::to_string(r.begin.line + 1) + "-" +
                                          std::to_string(r.end.line + 1);
}

void explainMediator(llvm::raw_ostream &os, const SourceFile &main, const TraceRegion &t,
                     const Mediator &m, const MediatorFacts &f, std::set<std::string> &codes) {
  os << "Mediator #" << t.index << '.' << m.index << " ("
     << (m.kind == MediatorKind::Invoke ? "an invoke body" : "the trace body") << ", "
     << lines(m.bodyRange) << ") is "
     << (f.guards.empty() ? tierProse(f.tier)
                          : "FAST while the caller's values are what the analysis assumed; a "
                            "runtime checks them, and runs it ISOLATE otherwise")
     << (f.tier == Tier::Fast ? ".\n" : ":\n");
  if (!f.guards.empty()) {
    for (const auto &[name, kind] : f.guards)
      os << "  - " << name << ": "
         << (kind == CallerAssumption::SmallNumber
                 ? "an int or a float of at most " + std::to_string(f.guardMost)
                 : std::string("an int, a float or a tensor"))
         << '\n';
    codes.insert(std::string(diagInfo(DiagId::CallerGuard).code));
  }
  for (const Reason &r : f.reasons) {
    if (r.tier != f.tier)
      continue; // only the reasons that decided the tier
    os << "  - line " << r.range.begin.line + 1;
    if (r.file && r.file != &main)
      os << " of " << r.file->path();
    os << ": " << r.message << " [" << diagInfo(r.id).code << "]\n";
    os << "    path: ";
    for (size_t i = 0; i < r.via.size(); ++i)
      os << (i ? " \u2192 " : "") << r.via[i];
    os << '\n';
    codes.insert(std::string(diagInfo(r.id).code));
  }
  if (!f.modules.empty()) {
    os << "  It touches:";
    bool first = true;
    for (const auto &[path, accesses] : f.modules) {
      os << (first ? " " : "; ") << path << " (";
      bool a1 = true;
      for (const std::string &a : accesses) {
        os << (a1 ? "" : ", ") << a;
        a1 = false;
      }
      os << ')';
      first = false;
    }
    os << ".\n";
  }
  if (!f.saves.empty()) {
    os << "  It saves:";
    for (size_t i = 0; i < f.saves.size(); ++i)
      os << (i ? ", " : " ") << f.saves[i];
    os << ".\n";
  }
  os << "  It " << (f.differentiate ? "differentiates (calls backward or reads .grad)"
                                    : "does not differentiate")
     << (f.touchesWeights ? ", and reads model weights" : "") << ".\n";
  std::vector<std::string> supplied;
  for (const std::string &n : f.freeNames)
    if (!f.loop || !llvm::is_contained(f.loop->names, n))
      supplied.push_back(n);
  if (f.loop)
    os << "  It runs once per turn of `for " << f.loop->target << " in " << f.loop->iterable
       << "`, each turn with its own values of the loop's names.\n";
  if (!supplied.empty()) {
    os << "  The caller supplies:";
    for (size_t i = 0; i < supplied.size(); ++i)
      os << (i ? ", " : " ") << supplied[i];
    os << ".\n";
  }
}

/// A positive decimal that fits a line number, or nothing.
std::optional<uint32_t> lineNumber(llvm::StringRef digits) {
  uint32_t n = 0;
  if (digits.getAsInteger(10, n) || n == 0)
    return std::nullopt;
  return n;
}

/// FILE:LINE, or FILE:LINE:COLUMN as diagnostics print it (the column is
/// read and ignored) when FILE:LINE names no file.
bool parseLocation(llvm::StringRef arg, std::string &path, uint32_t &line) {
  auto [rest, last] = arg.rsplit(':');
  if (rest.empty() || rest.size() == arg.size() || !lineNumber(last))
    return false;
  auto [file, middle] = rest.rsplit(':');
  std::error_code ec;
  bool withColumn = !file.empty() && file.size() < rest.size() && lineNumber(middle) &&
                    !std::filesystem::exists(rest.str(), ec);
  path = (withColumn ? file : rest).str();
  line = *lineNumber(withColumn ? middle : last);
  return true;
}

} // namespace

int runExplain(const Options &opts) {
  if (opts.inputs.size() != 1) {
    llvm::errs() << "ivc: error: explain takes one FILE:LINE\n";
    return UsageOrIO;
  }
  std::string path;
  uint32_t line = 0;
  if (!parseLocation(opts.inputs[0], path, line)) {
    llvm::errs() << "ivc: error: explain needs FILE:LINE or FILE:LINE:COLUMN (a 1-based line "
                    "number)\n";
    return UsageOrIO;
  }
  auto a = analyzeFile(path, opts);
  if (!a)
    return UsageOrIO;

  uint32_t target = line - 1;
  // The innermost trace whose range holds the line; on a `with ...trace(...)`
  // line, all of its mediators; inside an invoke, that invoke.
  const TraceRegion *trace = nullptr;
  for (const TraceRegion &t : a->parsed->traces)
    if (t.range.begin.line <= target && target <= t.range.end.line &&
        (!trace || t.range.begin.offset >= trace->range.begin.offset))
      trace = &t;
  if (!trace) {
    llvm::errs() << "ivc: error: " << path << ":" << line << " is not inside a trace region\n";
    return UsageOrIO;
  }
  std::vector<const Mediator *> chosen;
  for (const Mediator &m : trace->mediators)
    if (m.kind == MediatorKind::Invoke && m.range.begin.line <= target &&
        target <= m.range.end.line)
      chosen.push_back(&m);
  if (chosen.empty())
    for (const Mediator &m : trace->mediators)
      chosen.push_back(&m);

  llvm::raw_ostream &os = llvm::outs();
  os << path << ':' << line << ": trace #" << trace->index << " (" << trace->receiver << '.'
     << trace->method << " at " << lines(trace->range) << ", policy '" << a->policy.name
     << "') has " << trace->mediators.size()
     << (trace->mediators.size() == 1 ? " mediator" : " mediators") << ".\n\n";
  std::set<std::string> codes;
  for (const Mediator *m : chosen) {
    explainMediator(os, a->source(), *trace, *m, a->facts[trace->index][m->index], codes);
    os << '\n';
  }
  for (const std::string &code : codes) {
    std::string_view fix = ruleDocSection(code, "How to fix");
    if (fix.empty())
      continue;
    os << "How to fix " << code << " (" << findDiag(code)->name << "):\n";
    for (std::string_view rest = fix; !rest.empty();) {
      size_t nl = rest.find('\n');
      os << "  " << rest.substr(0, nl) << '\n';
      if (nl == std::string_view::npos)
        break;
      rest = rest.substr(nl + 1);
    }
    os << '\n';
  }
  return Clean;
}

} // namespace ivc::cli
