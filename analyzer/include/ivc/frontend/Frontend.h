//===- Frontend.h - Parse a Python file and lower it to ivc's IR ---------===//
#ifndef IVC_FRONTEND_FRONTEND_H
#define IVC_FRONTEND_FRONTEND_H

#include "ivc/diag/Diagnostic.h"
#include "ivc/frontend/SourceFile.h"
#include "ivc/frontend/TraceRegion.h"
#include "ivc/ir/IR.h"

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <vector>

struct TSParser;
struct TSTree;

namespace ivc {

struct Skeleton;      // frontend/Skeleton.h
struct StatementCopy; // frontend/Lowering.h

struct TreeDeleter {
  void operator()(TSTree *t) const;
};
using TreeHandle = std::unique_ptr<TSTree, TreeDeleter>;

/// One top-level statement as lowered. Lowering a statement depends on its
/// text alone, so the next parse of an edited document copies the IR of each
/// statement whose text is unchanged (see Frontend::parse) instead of lowering
/// it again. A statement's ops, value numbers and trace regions are each one
/// contiguous run, which the copy renumbers.
struct LoweredUnit {
  uint32_t begin = 0, end = 0; // byte range of the statement's syntax node
  uint32_t line = 0, column = 0;
  uint64_t hash = 0;           // of the statement's text
  uint16_t symbol = 0;         // the node's grammar symbol
  uint32_t firstOp = 0, numOps = 0;
  uint32_t firstValue = 0, numValues = 0;
  uint32_t firstTrace = 0, numTraces = 0;
  /// Its ops in the module's body: the statement's header and the statement.
  uint32_t firstBodyOp = 0, numBodyOps = 0;
  /// False when the lowering looked beyond the statement or reported
  /// something (syntax errors, `from __future__`, nesting cut): such a
  /// statement is lowered again every time.
  bool reusable = false;
  /// The index of the previous parse's statement it was copied from, or -1
  /// when it was lowered.
  int32_t copiedFrom = -1;
};

/// A parsed and lowered file: its source, syntax tree, IR and trace regions.
/// The IR's strings may point into `source`, so the two live together.
struct ParsedFile {
  std::shared_ptr<const SourceFile> source;
  TreeHandle tree;
  ir::Module module;
  std::vector<TraceRegion> traces;
  std::vector<Diagnostic> diagnostics; // syntax and literal errors
  std::vector<LoweredUnit> units;      // the top-level statements, in order
  /// Bytes of the top-level statements Frontend::parseReachable left out.
  uint32_t skippedBytes = 0;
  /// False when `tree` holds only some statements: the others were copied
  /// from the previous parse or left out. Such a tree is no base for an
  /// incremental re-parse.
  bool wholeTree = true;

  bool hasErrors() const;
  /// Whether byte `offset` lies inside a string literal, after its opening
  /// quotes: text there is part of the string's value. False where `tree`
  /// holds no such statement.
  bool insideString(uint32_t offset) const;
};

/// Parses and lowers files. Holds one tree-sitter parser: use one Frontend per thread.
class Frontend {
public:
  explicit Frontend(FrontendOptions options = {});
  ~Frontend();
  Frontend(const Frontend &) = delete;
  Frontend &operator=(const Frontend &) = delete;

  const FrontendOptions &options() const { return options_; }

  /// Parses `source`. `oldTree`, when given, must be an earlier whole tree of
  /// the same document already edited with ts_tree_edit; tree-sitter then
  /// reuses its unchanged parts (incremental re-parse). `previous`, when
  /// given, is an earlier parse of the same document, lowered with the same
  /// options: the IR of its top-level statements whose text is unchanged is
  /// copied from it, and when the others parse without error on their own,
  /// only they are parsed (EditedParse.cpp). The result is the same as
  /// without `previous`, but for `tree`.
  std::unique_ptr<ParsedFile> parse(std::shared_ptr<const SourceFile> source,
                                    const TSTree *oldTree = nullptr,
                                    const ParsedFile *previous = nullptr);

  /// Parses and lowers only the top-level statements that hold trace regions
  /// and, transitively, those that may bind a name a kept statement spells
  /// (ReachableParse.cpp). Every trace region, mediator and what they can
  /// reach is as parse() gives it; syntax errors in the statements left out
  /// are not reported. Falls back to parse() when the kept code has a syntax
  /// error.
  std::unique_ptr<ParsedFile> parseReachable(std::shared_ptr<const SourceFile> source);

  /// The tree-sitter parse alone, for benchmarks that compare against it.
  TreeHandle parseTree(std::string_view text, const TSTree *oldTree = nullptr);

private:
  /// Reports the syntax errors of `file`'s tree and lowers it.
  void lower(ParsedFile &file, const ParsedFile *previous);
  /// Only the statements that changed since `previous`; null when they do
  /// not parse on their own without error.
  std::unique_ptr<ParsedFile> parseEdited(std::shared_ptr<const SourceFile> source,
                                          const ParsedFile &previous);
  /// Parses the statements of `sk` marked in `parse` (tree-sitter's included
  /// ranges) and lowers them, with `copies` in between. Null when they have a
  /// syntax error, or tree-sitter splits them otherwise than the skeleton.
  std::unique_ptr<ParsedFile> parseStatements(std::shared_ptr<const SourceFile> source,
                                              const Skeleton &sk, const std::vector<bool> &parse,
                                              const ParsedFile *previous,
                                              llvm::ArrayRef<StatementCopy> copies);

  FrontendOptions options_;
  TSParser *parser_;
};

} // namespace ivc

#endif
