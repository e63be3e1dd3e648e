//===- Plan.h - The execution plan, ivc-plan/v1 (docs/plan.md) -----------===//
#ifndef IVC_PLAN_PLAN_H
#define IVC_PLAN_PLAN_H

#include "ivc/engine/Engine.h"

#include "llvm/Support/JSON.h"

#include <string>
#include <string_view>

namespace ivc {

inline constexpr std::string_view PlanSchema = "ivc-plan/v1";

/// Writes the plan of an analyzed file, whatever its verdicts, as
/// printJson would print it, holding one trace's JSON at a time.
void writePlan(llvm::raw_ostream &os, const Analysis &analysis);
std::string planText(const Analysis &analysis);

/// Pretty-printed, deterministic JSON (sorted keys, two-space indent).
std::string printJson(const llvm::json::Value &v);

struct CompileOptions {
  std::string policy;   // preset name or policy file; empty: found from `filename`
  std::string manifest; // manifest JSON text; empty: none
};

/// Analyzes `source` and returns its plan as JSON text: what ivc.compile()
/// returns to Python. Errors in the options (a bad policy or manifest) come
/// back as {"error": "..."}.
std::string compilePlan(std::string_view source, std::string_view filename,
                        const CompileOptions &options);

} // namespace ivc

#endif
