//===- Frontend.cpp - Parse, report syntax errors, lower ------------------===//
#include "ivc/frontend/Frontend.h"

#include "Lowering.h"

#include "ivc/frontend/Grammar.h"

#include <tree_sitter/api.h>

namespace ivc {

void TreeDeleter::operator()(TSTree *t) const { ts_tree_delete(t); }

bool ParsedFile::hasErrors() const {
  for (const Diagnostic &d : diagnostics)
    if (d.severity == Severity::Error)
      return true;
  return false;
}

Frontend::Frontend(FrontendOptions options) : options_(std::move(options)) {
  parser_ = ts_parser_new();
  // Grammar::python() has already checked the ABI; this cannot fail after it.
  ts_parser_set_language(parser_, Grammar::python().language());
}

Frontend::~Frontend() { ts_parser_delete(parser_); }

TreeHandle Frontend::parseTree(std::string_view text, const TSTree *oldTree) {
  return TreeHandle(ts_parser_parse_string(parser_, oldTree, text.data(), uint32_t(text.size())));
}

namespace {

SourceRange nodeRange(TSNode n) {
  TSPoint b = ts_node_start_point(n), e = ts_node_end_point(n);
  return {{b.row, b.column, ts_node_start_byte(n)}, {e.row, e.column, ts_node_end_byte(n)}};
}

// Reports each ERROR node once (not its contents) and every MISSING token.
void collectSyntaxErrors(TSNode root, const Grammar &g, std::vector<Diagnostic> &out) {
  if (!ts_node_has_error(root))
    return;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool descend = true;
  while (true) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    bool isError = g.sym(n) == Sym::ERROR;
    if (descend && isError) {
      out.push_back(makeDiagnostic(DiagId::SyntaxError, nodeRange(n), {"invalid syntax"}));
    } else if (descend && ts_node_is_missing(n)) {
      std::string expected = ts_node_type(n);
      out.push_back(makeDiagnostic(DiagId::SyntaxError, nodeRange(n),
                                   {"expected '" + expected + "'"}));
    }
    if (descend && !isError && ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor))
      continue;
    if (ts_tree_cursor_goto_next_sibling(&cursor)) {
      descend = true;
      continue;
    }
    // Climb until a parent has a next sibling.
    descend = false;
    if (!ts_tree_cursor_goto_parent(&cursor))
      break;
  }
  ts_tree_cursor_delete(&cursor);
}

} // namespace

std::unique_ptr<ParsedFile> Frontend::parse(std::shared_ptr<const SourceFile> source,
                                            const TSTree *oldTree) {
  auto file = std::make_unique<ParsedFile>();
  file->source = std::move(source);
  file->tree = parseTree(file->source->text(), oldTree);
  TSNode root = ts_tree_root_node(file->tree.get());
  collectSyntaxErrors(root, Grammar::python(), file->diagnostics);
  Lowering lowering(*file->source, file->module, file->traces, file->diagnostics, options_);
  lowering.lowerModule(root);
  return file;
}

} // namespace ivc
