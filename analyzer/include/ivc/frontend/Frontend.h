//===- Frontend.h - Parse a Python file and lower it to ivc's IR ---------===//
#ifndef IVC_FRONTEND_FRONTEND_H
#define IVC_FRONTEND_FRONTEND_H

#include "ivc/diag/Diagnostic.h"
#include "ivc/frontend/SourceFile.h"
#include "ivc/frontend/TraceRegion.h"
#include "ivc/ir/IR.h"

#include <memory>
#include <vector>

struct TSParser;
struct TSTree;

namespace ivc {

struct TreeDeleter {
  void operator()(TSTree *t) const;
};
using TreeHandle = std::unique_ptr<TSTree, TreeDeleter>;

/// A parsed and lowered file: its source, syntax tree, IR and trace regions.
/// The IR's strings may point into `source`, so the two live together.
struct ParsedFile {
  std::shared_ptr<const SourceFile> source;
  TreeHandle tree;
  ir::Module module;
  std::vector<TraceRegion> traces;
  std::vector<Diagnostic> diagnostics; // syntax and literal errors

  bool hasErrors() const;
};

/// Parses and lowers files. Holds one tree-sitter parser: use one Frontend per thread.
class Frontend {
public:
  explicit Frontend(FrontendOptions options = {});
  ~Frontend();
  Frontend(const Frontend &) = delete;
  Frontend &operator=(const Frontend &) = delete;

  const FrontendOptions &options() const { return options_; }

  /// Parses `source`. `oldTree`, when given, must be an earlier tree of the
  /// same document already edited with ts_tree_edit; tree-sitter then reuses
  /// its unchanged parts (incremental re-parse).
  std::unique_ptr<ParsedFile> parse(std::shared_ptr<const SourceFile> source,
                                    const TSTree *oldTree = nullptr);

  /// The tree-sitter parse alone, for benchmarks that compare against it.
  TreeHandle parseTree(std::string_view text, const TSTree *oldTree = nullptr);

private:
  FrontendOptions options_;
  TSParser *parser_;
};

} // namespace ivc

#endif
