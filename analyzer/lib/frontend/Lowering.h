//===- Lowering.h - CST to IR lowering (internal) -----------------------===//
//
// One Lowering object lowers one tree. Statements, expressions, patterns and
// string literals are lowered in separate files (LowerStmt, LowerExpr,
// LowerPattern, LowerString); this header is what they share.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_FRONTEND_LOWERING_H
#define IVC_LIB_FRONTEND_LOWERING_H

#include "ivc/diag/Diagnostic.h"
#include "ivc/frontend/Frontend.h"
#include "ivc/frontend/Grammar.h"
#include "ivc/frontend/SourceFile.h"
#include "ivc/frontend/TraceRegion.h"
#include "ivc/ir/IR.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <initializer_list>
#include <unordered_map>
#include <vector>

namespace ivc {

/// The reusable statements of a previous parse, by the hash of their text.
using UnitIndex = std::unordered_multimap<uint64_t, const LoweredUnit *>;

/// In a replacement field `f"{x:=10}"` (no conversion, spec or `=`),
/// the walrus tree-sitter reads: Python reads the field `x` with the format
/// spec "=10" (a walrus needs parentheses there). Null for other nodes.
TSNode misreadWalrus(TSNode field);

/// A statement of the previous parse whose text is unchanged, to be copied
/// to `at` (its place in the new text) instead of parsed and lowered.
struct StatementCopy {
  const LoweredUnit *from;
  LoweredUnit at; // position and text hash
};

class Lowering {
public:
  Lowering(const SourceFile &source, ir::Module &module, std::vector<TraceRegion> &traces,
           std::vector<Diagnostic> &diags, const FrontendOptions &options);
  ~Lowering();

  /// Lowers the module, one LoweredUnit per top-level statement; copies the
  /// unchanged statements of `previous` (may be null) instead. `copies`, in
  /// the order of the text, are statements that are not in the tree at all.
  void lowerModule(TSNode root, std::vector<LoweredUnit> &units, const ParsedFile *previous,
                   llvm::ArrayRef<StatementCopy> copies = {});

  // --- CST access ------------------------------------------------------
  struct Child {
    TSNode node;
    Sym sym;
    Field field;
    bool named;
  };
  using Children = llvm::SmallVector<Child, 8>;
  /// The children of `n` in order, without comments and line continuations.
  void children(TSNode n, Children &out);
  /// The first child in `field`, or a null node.
  static TSNode fieldChild(const Children &cs, Field f);
  Sym sym(TSNode n) const { return grammar_.sym(n); }
  SourceRange rangeOf(TSNode n) const;
  SourceRange span(TSNode first, TSNode last) const;
  std::string_view text(TSNode n) const;
  /// An identifier's name, NFKC-normalized.
  std::string_view identifier(TSNode n);
  /// "a.b.c" from a dotted_name, each part normalized.
  std::string_view dottedName(TSNode n);

  // --- emission --------------------------------------------------------
  ir::Op *emit(ir::OpKind kind, SourceRange range, std::initializer_list<ir::Op *> operands = {},
               std::string_view text = {});
  ir::Op *emit(ir::OpKind kind, SourceRange range, llvm::ArrayRef<ir::Op *> operands,
               std::string_view text = {});
  void openBlock();
  /// Closes the innermost block into `region` of `owner`.
  void closeBlock(ir::Region &region, ir::RegionKind kind, ir::Op *owner);
  std::span<ir::Region> regions(ir::Op *owner, size_t n);
  void error(DiagId id, SourceRange range, std::initializer_list<std::string_view> args);

  // --- statements (LowerStmt.cpp) --------------------------------------
  void lowerBlockInto(TSNode block); // the statements of a block or module
  void lowerStatement(TSNode n);
  void lowerStatementNode(TSNode n, const Children &cs, SourceRange range);
  /// Lowers the ERROR nodes anywhere in statement `n` that its lowering left
  /// out (`import a ERROR .b`), so that what they name stays visible.
  void strayErrors(TSNode n);
  /// Marks the ERROR nodes under `n` as handled: `n` is text tree-sitter
  /// misread as code (see misreadWalrus), not a syntax error.
  void treatErrorsAsText(TSNode n);
  /// Calls `f` on `n` and every ERROR node below it, outermost first.
  template <typename F> void forEachError(TSNode n, F &&f);
  void splitAsPattern(TSNode pattern, TSNode &value, TSNode &alias);
  ir::Op *lowerBody(ir::Op *owner, ir::Region &region, ir::RegionKind kind, TSNode block);
  /// `print >> f, a`: the expression Python 3 reads in it.
  ir::Op *printChevron(const Children &cs);

  // --- expressions (LowerExpr.cpp) -------------------------------------
  ir::Op *expr(TSNode n, ir::Ctx ctx = ir::Ctx::Load);
  ir::Op *optionalExpr(TSNode n, ir::Ctx ctx = ir::Ctx::Load);
  /// Several expressions as one (a tuple when there are several).
  ir::Op *exprList(TSNode n, ir::Ctx ctx = ir::Ctx::Load);
  void callArguments(TSNode argumentList, llvm::SmallVectorImpl<ir::Op *> &out);
  void parameters(TSNode params, llvm::SmallVectorImpl<ir::Op *> &out);
  ir::Op *opaque(TSNode n);
  /// tree-sitter-python may attach an element's `*` to its leftmost operand
  /// (`[*range(3)]` read as `(*range)(3)`, `x = *a.b, c` as `(*a).b`), where
  /// Python applies it to the whole element. For a call, attribute,
  /// subscript or binary operator that starts with `*`: the splat at the
  /// bottom of its leftmost operands, else a null node.
  TSNode misplacedSplat(TSNode n);
  /// Whether `n` is a splat being lowered as its operand.
  bool isMisplacedSplat(TSNode n) const;
  /// A `type` node or one of its forms, as the expression it evaluates.
  ir::Op *typeExpr(TSNode n);
  /// What a type parameter list `[T: bound, *Ts]` evaluates: its bounds. The
  /// names it declares are not reads.
  void typeParameterBounds(TSNode list, llvm::SmallVectorImpl<ir::Op *> &out);
  void opaqueOperands(TSNode n, llvm::SmallVectorImpl<ir::Op *> &out);

  /// Expressions, patterns and statements nested deeper than MaxNesting are
  /// not lowered: every later stage walks the IR recursively, and so would
  /// overflow even the analysis's stack (Stack.h) on `-` * 100000 + `1`.
  /// CPython 3.11 compiles chains (`a + a + ...`, `- - ... 1`, `f(h)(h)...`)
  /// of up to about 2990 and raises a RecursionError past that.
  static constexpr unsigned MaxNesting = 3000;
  /// Counts one level of nesting while it lives.
  struct Nesting {
    explicit Nesting(Lowering &l) : l(l) { ++l.nesting_; }
    ~Nesting() { --l.nesting_; }
    bool tooDeep() const { return l.nesting_ > MaxNesting; }
    Lowering &l;
  };
  /// An empty opaque op for `n`, with one error for the file.
  ir::Op *tooDeep(TSNode n);

  // --- patterns (LowerPattern.cpp) -------------------------------------
  ir::Op *pattern(TSNode n);

  // --- strings (LowerString.cpp) ---------------------------------------
  ir::Op *strings(TSNode n); // a string or concatenated_string

  const SourceFile &source_;
  ir::Module &module_;
  std::vector<TraceRegion> &traces_;
  std::vector<Diagnostic> &diags_;
  const FrontendOptions &options_;
  const Grammar &grammar_;

private:
  TSTreeCursor cursor_;
  bool cursorValid_ = false;
  std::vector<std::vector<ir::Op *>> blocks_;
  size_t depth_ = 0; // number of open blocks
  unsigned nesting_ = 0;
  bool reportedTooDeep_ = false;
  unsigned cuts_ = 0; // how many times MaxNesting cut the lowering short
  /// The ERROR nodes opaque() lowered, by node id.
  llvm::DenseSet<const void *> loweredErrors_;
  /// ERROR nodes after a compound statement's ':', lowered into its first body.
  llvm::SmallVector<TSNode, 1> bodyErrors_;
  /// Splats being lowered as their operand (see misplacedSplat).
  llvm::SmallVector<TSNode, 1> misplacedSplats_;

  /// Lowers one top-level statement, or copies it from `previous`.
  LoweredUnit lowerUnit(TSNode n, const ParsedFile *previous, const UnitIndex &index);
  LoweredUnit copyStatement(const ParsedFile &previous, const StatementCopy &c);
  /// Where a unit's ops, values, traces and body ops start, and how many.
  void startUnit(LoweredUnit &u);
  void endUnit(LoweredUnit &u);
  /// Appends a copy of `unit` of `previous` to the module body, placed where
  /// `at` (its unchanged text in this file) is (UnitCopy.cpp).
  void copyUnit(const ParsedFile &previous, const LoweredUnit &unit, const LoweredUnit &at);

public:
  // --- trace regions (LowerTrace.cpp) ----------------------------------
  /// The trace region the lowering is inside, or -1.
  int currentTrace_ = -1;
  /// Classifies a with item's context expression and returns the role.
  ir::WithRole classifyWithItem(ir::Op *context, std::string_view &method) const;
  void lowerWith(TSNode n, const Children &cs);
  /// Splits a finished trace region into mediators.
  void finishTrace(TraceRegion &trace);
};

} // namespace ivc

#endif
