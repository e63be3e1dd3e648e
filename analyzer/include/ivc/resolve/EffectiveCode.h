//===- EffectiveCode.h - A mediator plus everything it can reach ---------===//
//
// A mediator's effective code is its body (and header) plus every function,
// lambda and class of the file (or of a capture manifest) that it can reach,
// transitively and cycle-safely, each with the path that reaches it:
// `body L12 -> unembed() L3`. A function is reached by any reference to it,
// not only a call (`map(helper, xs)` reaches helper), and reaching it also
// reaches its definition-time code: decorators, defaults, annotations.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RESOLVE_EFFECTIVECODE_H
#define IVC_RESOLVE_EFFECTIVECODE_H

#include "ivc/frontend/TraceRegion.h"
#include "ivc/resolve/Values.h"

#include "llvm/ADT/DenseSet.h"

#include <functional>
#include <string>
#include <vector>

namespace ivc {

struct ParsedFile;

/// Everything the passes need about one lowered module: the analyzed file, or
/// a function's source from a capture manifest.
struct ModuleContext {
  std::shared_ptr<ParsedFile> file;
  std::unique_ptr<ScopeTree> scopes;
  TraceBindings traces;
  std::unique_ptr<ValueAnalysis> values;
};

/// One step from a mediator towards a unit: the reference in `unit` that reaches the next one.
struct ViaStep {
  std::string unit;                 // "body", "unembed()"
  uint32_t line;                    // 1-based line of the reference
  SourceRange range;                // the reference
  const SourceFile *file = nullptr; // the file of `unit`
};

struct CodeUnit {
  enum class Kind : uint8_t { Mediator, Function, Class, Lambda };
  Kind kind = Kind::Mediator;
  ir::Op *op = nullptr;           // def, class or lambda; null for the mediator
  std::string name;               // "body", "unembed()", "class Config", "lambda"
  std::vector<ViaStep> via;       // from the mediator to the reference that reached it
  /// Steps left out of `via` after its first MaxViaSteps: every unit keeps
  /// a copy of its path, so a chain of 20,000 helpers would cost 20,000².
  size_t elidedSteps = 0;
  static constexpr size_t MaxViaSteps = 32;
  ModuleContext *context = nullptr;
  /// Every op of the unit in walk order (see EffectiveCode::forEachOp),
  /// collected once so that each pass iterates a flat list.
  std::vector<ir::Op *> ops;
};

struct EffectiveCode {
  const Mediator *mediator = nullptr;
  std::vector<CodeUnit> units; // units[0] is the mediator itself
  /// Functions a capture manifest binds whose source defines no such
  /// function (a syntax error, a partial capture): their code is not in
  /// `units`, so a call of one is unresolved, not confirmed.
  llvm::DenseSet<const ManifestBinding *> unreadable;

  /// Calls `f(op)` for every op of `unit`, in order, nested regions included;
  /// a mediator skips the bodies of nested traces and of invokes that are
  /// mediators of their own.
  template <typename F> void forEachOp(const CodeUnit &unit, F &&f) const {
    for (ir::Op *op : unit.ops)
      f(op);
  }
  /// Collects `unit.ops` (what forEachOp visits).
  void collectOps(CodeUnit &unit) const;
};

/// Resolves a function bound by a capture manifest to its lowered source.
using ManifestFunctionLoader =
    std::function<std::pair<ModuleContext *, ir::Op *>(const ManifestBinding &)>;

EffectiveCode buildEffectiveCode(const Mediator &mediator, ModuleContext &main,
                                 const ManifestFunctionLoader &loadManifestFunction);

} // namespace ivc

#endif
