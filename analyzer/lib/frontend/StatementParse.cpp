//===- StatementParse.cpp - Parse some top-level statements of a file -----===//
//
// tree-sitter parses the chosen statements alone, through included ranges,
// and they are lowered as usual, with the statements copied from an earlier
// parse in between. This is what a parse of the whole file gives whenever the
// chosen statements parse without error: a statement that starts at column 0
// parses the same on its own as among the others. When they do not (or the
// skeleton split the file where tree-sitter does not), the caller parses the
// whole file, whose error recovery may span statements.
//
//===----------------------------------------------------------------------===//
#include "ivc/frontend/Frontend.h"

#include "Lowering.h"
#include "Skeleton.h"

#include <tree_sitter/api.h>

namespace ivc {

namespace {

// Every top-level node must lie within one parsed statement.
bool agreesWithSkeleton(TSNode root, const std::vector<TSRange> &statements) {
  size_t k = 0;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode n = ts_node_named_child(root, i);
    if (ts_node_is_extra(n)) // comments between parsed statements
      continue;
    uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
    while (k < statements.size() && statements[k].end_byte <= b)
      ++k;
    if (k == statements.size() || b < statements[k].start_byte || e > statements[k].end_byte)
      return false;
  }
  return true;
}

} // namespace

std::unique_ptr<ParsedFile> Frontend::parseStatements(std::shared_ptr<const SourceFile> source,
                                                      const Skeleton &sk,
                                                      const std::vector<bool> &parse,
                                                      const ParsedFile *previous,
                                                      llvm::ArrayRef<StatementCopy> copies) {
  std::vector<TSRange> statements, ranges; // the parsed statements, and their runs
  for (size_t i = 0; i < sk.statements.size(); ++i) {
    if (!parse[i])
      continue;
    const SkeletonStatement &s = sk.statements[i];
    TSRange r{{s.row, 0}, {s.endRow, s.endColumn}, s.begin, s.end};
    statements.push_back(r);
    if (i > 0 && parse[i - 1]) {
      ranges.back().end_point = r.end_point;
      ranges.back().end_byte = r.end_byte;
    } else {
      ranges.push_back(r);
    }
  }
  auto file = std::make_unique<ParsedFile>();
  file->source = std::move(source);
  file->wholeTree = false;
  if (ranges.empty()) {
    file->tree = parseTree(std::string_view());
  } else {
    // tree-sitter refuses ranges out of order, and would then parse it all.
    if (!ts_parser_set_included_ranges(parser_, ranges.data(), uint32_t(ranges.size())))
      return nullptr;
    file->tree = parseTree(file->source->text());
    ts_parser_set_included_ranges(parser_, nullptr, 0);
  }
  TSNode root = ts_tree_root_node(file->tree.get());
  if (ts_node_has_error(root) || !agreesWithSkeleton(root, statements))
    return nullptr;
  Lowering lowering(*file->source, file->module, file->traces, file->diagnostics, options_);
  lowering.lowerModule(root, file->units, previous, copies);
  return file;
}

} // namespace ivc
