//===- DocumentStore.cpp --------------------------------------------------===//
#include "ivc/lsp/DocumentStore.h"

#include "ivc/lsp/Uri.h"

#include <algorithm>

namespace ivc::lsp {

namespace {

// The point reached from `start` after `inserted`.
TSPoint pointAfter(TSPoint start, std::string_view inserted) {
  uint32_t rows = uint32_t(std::count(inserted.begin(), inserted.end(), '\n'));
  if (rows == 0)
    return {start.row, start.column + uint32_t(inserted.size())};
  return {start.row + rows, uint32_t(inserted.size() - inserted.rfind('\n') - 1)};
}

llvm::Error invalid(const std::string &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string describe(const Position &p) {
  return std::to_string(p.line) + ":" + std::to_string(p.character);
}

} // namespace

llvm::Error applyChange(EditableText &text, const ContentChange &change, PositionEncoding encoding,
                        TSInputEdit &edit) {
  if (!change.range) {
    edit.start_byte = 0;
    edit.old_end_byte = uint32_t(text.text().size());
    edit.new_end_byte = uint32_t(change.text.size());
    edit.start_point = {0, 0};
    edit.old_end_point = text.pointAt(uint32_t(text.text().size()));
    edit.new_end_point = pointAfter({0, 0}, change.text);
    text = EditableText(change.text);
    return llvm::Error::success();
  }
  OffsetResult start = text.offsetOf(change.range->start, encoding);
  if (start.error != OffsetError::None)
    return invalid("edit start " + describe(change.range->start) + ": " +
                   std::string(offsetErrorMessage(start.error)));
  OffsetResult end = text.offsetOf(change.range->end, encoding);
  if (end.error != OffsetError::None)
    return invalid("edit end " + describe(change.range->end) + ": " +
                   std::string(offsetErrorMessage(end.error)));
  if (end.offset < start.offset)
    return invalid("edit range " + describe(change.range->start) + "-" +
                   describe(change.range->end) + " ends before it starts");
  edit.start_byte = start.offset;
  edit.old_end_byte = end.offset;
  edit.new_end_byte = start.offset + uint32_t(change.text.size());
  edit.start_point = text.pointAt(start.offset);
  edit.old_end_point = text.pointAt(end.offset);
  edit.new_end_point = pointAfter(edit.start_point, change.text);
  text.replace(start.offset, end.offset, change.text);
  return llvm::Error::success();
}

std::string DocumentStore::pathOf(const std::string &uri) {
  std::optional<std::string> path = uriToPath(uri);
  return path ? *path : uri;
}

void DocumentStore::open(const std::string &uri, int64_t version, std::string text) {
  auto source = std::make_shared<const SourceFile>(pathOf(uri), std::move(text));
  std::lock_guard<std::mutex> lock(mutex_);
  Document &d = docs_[uri];
  d.version = version;
  d.generation = ++generations_;
  d.source = std::move(source);
  d.tree.reset();
}

llvm::Error DocumentStore::change(const std::string &uri, int64_t version,
                                  const std::vector<ContentChange> &changes,
                                  PositionEncoding encoding) {
  std::shared_ptr<const SourceFile> source;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = docs_.find(uri);
    if (it == docs_.end())
      return invalid("document is not open: " + uri);
    source = it->second.source;
  }
  // Apply every change to a new text first: all or nothing.
  EditableText text(source->text());
  std::vector<TSInputEdit> edits;
  bool replaced = false; // a whole-text change: the old tree is no base
  for (size_t i = 0; i < changes.size(); ++i) {
    TSInputEdit edit;
    if (llvm::Error err = applyChange(text, changes[i], encoding, edit))
      return invalid("contentChanges[" + std::to_string(i) + "]: " +
                     llvm::toString(std::move(err)));
    replaced |= !changes[i].range;
    if (!replaced)
      edits.push_back(edit);
  }
  source = std::make_shared<const SourceFile>(source->path(), text.take());
  std::lock_guard<std::mutex> lock(mutex_);
  Document &d = docs_[uri]; // open: only this thread opens and closes
  d.version = version;
  d.generation = ++generations_;
  d.source = std::move(source);
  if (replaced)
    d.tree.reset();
  else if (d.tree)
    for (const TSInputEdit &e : edits)
      ts_tree_edit(d.tree.get(), &e);
  return llvm::Error::success();
}

bool DocumentStore::close(const std::string &uri) {
  std::lock_guard<std::mutex> lock(mutex_);
  return docs_.erase(uri) != 0;
}

bool DocumentStore::isOpen(const std::string &uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  return docs_.count(uri) != 0;
}

std::vector<std::string> DocumentStore::uris() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::string> out;
  for (const auto &[uri, doc] : docs_)
    out.push_back(uri);
  return out;
}

std::optional<Snapshot> DocumentStore::snapshot(const std::string &uri) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = docs_.find(uri);
  if (it == docs_.end())
    return std::nullopt;
  Snapshot s;
  s.uri = uri;
  s.version = it->second.version;
  s.generation = it->second.generation;
  s.source = it->second.source;
  // A copy, so the worker can parse with it while later edits change ours.
  if (it->second.tree)
    s.oldTree.reset(ts_tree_copy(it->second.tree.get()));
  return s;
}

void DocumentStore::adoptTree(const std::string &uri, uint64_t generation, TreeHandle tree) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = docs_.find(uri);
  if (it != docs_.end() && it->second.generation == generation)
    it->second.tree = std::move(tree);
}

void DocumentStore::dropTree(const std::string &uri, uint64_t generation) {
  TreeHandle gone; // freed without the lock
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = docs_.find(uri);
  if (it != docs_.end() && it->second.generation == generation)
    gone = std::move(it->second.tree);
}

} // namespace ivc::lsp
