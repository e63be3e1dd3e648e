//===- DocumentStore.h - Open documents: text, version, edited tree -------===//
//
// The text of every open document at its latest version, and the syntax tree
// of an earlier analysis with every later edit applied to it by ts_tree_edit,
// so that the next parse is incremental: tree-sitter re-parses only what the
// edits touched. Edits are applied all or nothing: a didChange with one edit
// out of range leaves the document as it was.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LSP_DOCUMENTSTORE_H
#define IVC_LSP_DOCUMENTSTORE_H

#include "ivc/frontend/Frontend.h"
#include "ivc/lsp/EditableText.h"
#include "ivc/lsp/Position.h"

#include "llvm/Support/Error.h"

#include <tree_sitter/api.h>

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ivc::lsp {

/// One TextDocumentContentChangeEvent: a range and its new text, or (no
/// range) the whole new text.
struct ContentChange {
  std::optional<Range> range;
  std::string text;
};

/// Applies `change` to `text`, with the tree-sitter edit that describes it
/// in `edit` (byte offsets, and rows and byte columns counted as tree-sitter
/// does, by '\n'). Fails, leaving `text` as it was, for a range that is out
/// of the text, splits a code point or ends before it starts.
llvm::Error applyChange(EditableText &text, const ContentChange &change,
                        PositionEncoding encoding, TSInputEdit &edit);

/// What an analysis of one version needs; owns its copy of the tree.
struct Snapshot {
  std::string uri;
  int64_t version = 0;
  /// Counts every open and change of the document: unlike the client's
  /// version it is never reused.
  uint64_t generation = 0;
  std::shared_ptr<const SourceFile> source;
  TreeHandle oldTree; // null: parse from scratch
};

class DocumentStore {
public:
  /// The path ivc reports for `uri`: the file's path, or the URI itself.
  static std::string pathOf(const std::string &uri);

  void open(const std::string &uri, int64_t version, std::string text);
  /// Applies `changes` in order; on failure the document is unchanged.
  llvm::Error change(const std::string &uri, int64_t version,
                     const std::vector<ContentChange> &changes, PositionEncoding encoding);
  /// False when it was not open.
  bool close(const std::string &uri);
  bool isOpen(const std::string &uri) const;
  std::vector<std::string> uris() const;

  /// The latest text and a copy of the edited tree; nothing when not open.
  std::optional<Snapshot> snapshot(const std::string &uri) const;
  /// Keeps `tree`, the parse of snapshot `generation`, as the base of the
  /// next incremental parse, unless the document has changed since.
  void adoptTree(const std::string &uri, uint64_t generation, TreeHandle tree);
  /// Frees the tree of snapshot `generation` (the next parse is whole),
  /// unless the document has changed since.
  void dropTree(const std::string &uri, uint64_t generation);

private:
  struct Document {
    int64_t version = 0;
    uint64_t generation = 0;
    std::shared_ptr<const SourceFile> source;
    TreeHandle tree;
  };
  mutable std::mutex mutex_;
  uint64_t generations_ = 0;
  std::map<std::string, Document> docs_;
};

} // namespace ivc::lsp

#endif
