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

bool ParsedFile::insideString(uint32_t offset) const {
  if (!tree)
    return false;
  const Grammar &g = Grammar::python();
  TSNode n = ts_node_descendant_for_byte_range(ts_tree_root_node(tree.get()), offset, offset);
  for (; !ts_node_is_null(n); n = ts_node_parent(n))
    if (g.sym(n) == Sym::string && ts_node_start_byte(n) < offset && offset < ts_node_end_byte(n))
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
  // Python ends a line at a lone \r as at \n (old Mac line endings); the
  // grammar only at \n. Each lone \r becomes \n in the copy the grammar
  // reads: byte offsets stay, and its rows then agree with SourceFile's.
  std::string copy;
  for (size_t at = text.find('\r'); at != std::string_view::npos; at = text.find('\r', at + 1)) {
    if (at + 1 < text.size() && text[at + 1] == '\n')
      continue;
    if (copy.empty())
      copy.assign(text);
    copy[at] = '\n';
  }
  if (!copy.empty())
    text = copy;
  return TreeHandle(ts_parser_parse_string(parser_, oldTree, text.data(), uint32_t(text.size())));
}

namespace {

SourceRange nodeRange(TSNode n) {
  TSPoint b = ts_node_start_point(n), e = ts_node_end_point(n);
  return {{b.row, b.column, ts_node_start_byte(n)}, {e.row, e.column, ts_node_end_byte(n)}};
}

// The leaf tokens of `n`, in order.
void leaves(TSNode n, std::vector<TSNode> &out) {
  uint32_t count = ts_node_child_count(n);
  if (count == 0) {
    out.push_back(n);
    return;
  }
  TSTreeCursor cursor = ts_tree_cursor_new(n);
  ts_tree_cursor_goto_first_child(&cursor);
  do
    leaves(ts_tree_cursor_current_node(&cursor), out);
  while (ts_tree_cursor_goto_next_sibling(&cursor));
  ts_tree_cursor_delete(&cursor);
}

bool isCompoundKeyword(std::string_view t) {
  for (std::string_view k : {"if", "elif", "else", "for", "while", "def", "class", "with", "try",
                             "except", "finally", "match", "case", "async"})
    if (t == k)
      return true;
  return false;
}

// Explains an ERROR node the way CPython would where a cheap look at its
// tokens allows: an unclosed bracket, a compound statement without ':'.
Diagnostic explainError(TSNode error, std::string_view text) {
  std::vector<TSNode> tokens;
  leaves(error, tokens);
  auto tokenText = [&](TSNode t) {
    return text.substr(ts_node_start_byte(t), ts_node_end_byte(t) - ts_node_start_byte(t));
  };
  std::vector<TSNode> open;
  bool colonAtTop = false;
  for (TSNode t : tokens) {
    std::string_view tt = tokenText(t);
    if (tt == "(" || tt == "[" || tt == "{")
      open.push_back(t);
    else if ((tt == ")" || tt == "]" || tt == "}") && !open.empty())
      open.pop_back();
    else if (tt == ":" && open.empty())
      colonAtTop = true;
  }
  if (!open.empty())
    return makeDiagnostic(DiagId::SyntaxError, nodeRange(open.front()),
                          {"'" + std::string(tokenText(open.front())) + "' was never closed"});
  if (!tokens.empty() && isCompoundKeyword(tokenText(tokens.front())) && !colonAtTop) {
    // Point just past the last token on the statement's first line.
    uint32_t row = ts_node_start_point(tokens.front()).row;
    TSNode last = tokens.front();
    for (TSNode t : tokens)
      if (ts_node_start_point(t).row == row)
        last = t;
    SourceRange at = nodeRange(last);
    at.begin = at.end;
    return makeDiagnostic(DiagId::SyntaxError, at, {"expected ':'"});
  }
  return makeDiagnostic(DiagId::SyntaxError, nodeRange(error), {"invalid syntax"});
}

// Reports each ERROR node once (not its contents) and every MISSING token.
void collectSyntaxErrors(TSNode root, const Grammar &g, std::string_view text,
                         std::vector<Diagnostic> &out) {
  if (!ts_node_has_error(root))
    return;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  bool descend = true;
  while (true) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    bool isError = g.sym(n) == Sym::ERROR;
    if (descend && isError) {
      out.push_back(explainError(n, text));
    } else if (descend && ts_node_is_missing(n)) {
      std::string expected = ts_node_type(n);
      out.push_back(makeDiagnostic(DiagId::SyntaxError, nodeRange(n),
                                   {"expected '" + expected + "'"}));
    }
    // A misread format spec is text, not code (see misreadWalrus).
    if (descend && !isError && ts_node_has_error(n) && ts_node_is_null(misreadWalrus(n)) &&
        ts_tree_cursor_goto_first_child(&cursor))
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
                                            const TSTree *oldTree, const ParsedFile *previous) {
  if (previous)
    if (auto file = parseEdited(source, *previous))
      return file;
  auto file = std::make_unique<ParsedFile>();
  file->source = std::move(source);
  file->tree = parseTree(file->source->text(), oldTree);
  lower(*file, previous);
  return file;
}

void Frontend::lower(ParsedFile &file, const ParsedFile *previous) {
  TSNode root = ts_tree_root_node(file.tree.get());
  collectSyntaxErrors(root, Grammar::python(), file.source->text(), file.diagnostics);
  Lowering lowering(*file.source, file.module, file.traces, file.diagnostics, options_);
  lowering.lowerModule(root, file.units, previous);
}

} // namespace ivc
