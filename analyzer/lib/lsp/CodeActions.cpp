//===- CodeActions.cpp ----------------------------------------------------===//
#include "CodeActions.h"

#include "Diagnostics.h"

#include "ivc/frontend/Grammar.h"

#include <set>

namespace ivc::lsp {

using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

namespace {

bool isString(Sym s) {
  return s == Sym::string || s == Sym::string_content || s == Sym::concatenated_string;
}

// Whether byte `at` is inside a string that continues past it (a
// triple-quoted string spanning lines).
bool insideString(TSNode root, uint32_t at) {
  for (TSNode n = ts_node_descendant_for_byte_range(root, at, at); !ts_node_is_null(n);
       n = ts_node_parent(n))
    if (isString(Grammar::python().sym(n)) && ts_node_start_byte(n) < at &&
        ts_node_end_byte(n) > at)
      return true;
  return false;
}

// The offset of the comment that ends `line`, if any.
std::optional<uint32_t> commentOn(const ParsedFile &file, uint32_t line) {
  TSNode root = ts_tree_root_node(file.tree.get());
  std::string_view text = file.source->lineText(line);
  uint32_t start = file.source->lineStart(line);
  for (size_t hash = text.find('#'); hash != std::string_view::npos;
       hash = text.find('#', hash + 1)) {
    uint32_t at = start + uint32_t(hash);
    TSNode n = ts_node_descendant_for_byte_range(root, at, at + 1);
    if (Grammar::python().sym(n) == Sym::comment)
      return at;
  }
  return std::nullopt;
}

Value textEdit(const SourceFile &file, uint32_t begin, uint32_t end, const std::string &text,
               PositionEncoding e) {
  return Object{{"range", toJSON(Range{toPosition(file, begin, e), toPosition(file, end, e)})},
                {"newText", text}};
}

Value workspaceEdit(const AnalysisResult &r, Array edits, const ClientCapabilities &client) {
  if (client.documentChanges)
    return Object{{"documentChanges",
                   Array{Object{{"textDocument", Object{{"uri", r.uri}, {"version", r.version}}},
                                {"edits", std::move(edits)}}}}};
  return Object{{"changes", Object{{r.uri, std::move(edits)}}}};
}

// Whether `only` (CodeActionContext.only) admits quick fixes: a kind admits
// its sub-kinds, so "" and "quickfix" do.
bool wantsQuickFix(const std::optional<std::vector<std::string>> &only) {
  if (!only)
    return true;
  for (const std::string &kind : *only)
    if (kind.empty() || kind == "quickfix")
      return true;
  return false;
}

} // namespace

std::optional<SuppressionEdit> suppressionEdit(const ParsedFile &file, uint32_t line,
                                               std::string_view code) {
  const SourceFile &source = *file.source;
  if (line >= source.lineCount())
    return std::nullopt;
  std::string_view text = source.lineText(line);
  uint32_t end = source.lineStart(line) + uint32_t(text.size());
  size_t last = text.find_last_not_of(" \t");
  if (last != std::string_view::npos && text[last] == '\\')
    return std::nullopt; // a comment would end the continued line
  if (insideString(ts_tree_root_node(file.tree.get()), end))
    return std::nullopt;
  std::string entry(code);
  if (std::optional<uint32_t> comment = commentOn(file, line)) {
    // Parsed the way the engine reads suppressions: `ivc:`, spaces, `ignore`.
    std::string_view c = std::string_view(source.text()).substr(*comment, end - *comment);
    size_t ivc = c.find("ivc:");
    size_t word = ivc == std::string_view::npos ? ivc : c.find_first_not_of(" \t", ivc + 4);
    if (word != std::string_view::npos && c.substr(word, 6) == "ignore") {
      size_t open = word + 6;
      if (open >= c.size() || c[open] != '[')
        return std::nullopt; // a bare `ivc: ignore` silences every code already
      size_t close = c.find(']', open);
      std::string_view list = c.substr(open + 1, close == std::string_view::npos
                                                     ? std::string_view::npos
                                                     : close - open - 1);
      if (list.find(code) != std::string_view::npos)
        return std::nullopt;
      bool empty = list.find_first_not_of(" \t") == std::string_view::npos;
      std::string added = empty ? entry : ", " + entry;
      uint32_t at = close == std::string_view::npos ? end : *comment + uint32_t(close);
      std::string reads = "# ivc: ignore[" + std::string(list) + added + "]";
      if (close == std::string_view::npos)
        added += "]";
      return SuppressionEdit{at, at, added, reads};
    }
  }
  std::string comment = "# ivc: ignore[" + entry + "]";
  return SuppressionEdit{end, end, "  " + comment, comment};
}

Array codeActions(const AnalysisResult &r, const CodeActionParams &params,
                  const ClientCapabilities &client) {
  Array actions;
  if (!wantsQuickFix(params.only))
    return actions;
  const Analysis &a = *r.analysis;
  const SourceFile &file = a.source();
  PositionEncoding e = client.encoding;
  // Whole lines: a cursor anywhere on a diagnostic's line finds its fixes.
  uint32_t firstLine = file.position(toOffset(file, params.range.start, e, false).offset).line;
  uint32_t lastLine = file.position(toOffset(file, params.range.end, e, false).offset).line;
  std::set<std::pair<uint32_t, std::string>> suppressions; // one per line and code

  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    const Diagnostic &d = a.diagnostics[i];
    if (a.suppressed[i] || d.file)
      continue;
    uint32_t dFirst = file.position(d.range.begin.offset).line;
    uint32_t dLast = file.position(d.range.end.offset).line;
    if (dLast < firstLine || dFirst > lastLine)
      continue;
    Value lspDiag = toLspDiagnostic(d, file, r.uri, e);
    for (const FixIt &f : d.fixIts) {
      Array edits{textEdit(file, f.range.begin.offset, f.range.end.offset, f.replacement, e)};
      actions.push_back(Object{{"title", f.title.empty() ? "Apply ivc's fix" : f.title},
                               {"kind", "quickfix"},
                               {"diagnostics", Array{lspDiag}},
                               {"isPreferred", true},
                               {"edit", workspaceEdit(r, std::move(edits), client)}});
    }
    std::string code(d.info().code);
    if (!suppressions.insert({dFirst, code}).second)
      continue;
    if (std::optional<SuppressionEdit> s = suppressionEdit(*a.parsed, dFirst, code)) {
      Array edits{textEdit(file, s->begin, s->end, s->text, e)};
      actions.push_back(Object{{"title", "Suppress with `" + s->comment + "`"},
                               {"kind", "quickfix"},
                               {"diagnostics", Array{lspDiag}},
                               {"edit", workspaceEdit(r, std::move(edits), client)}});
    }
  }
  return actions;
}

} // namespace ivc::lsp
