// Parsing an edited document with the previous parse (copying unchanged
// top-level statements) must give exactly what a parse from scratch gives.
#include "ivc/frontend/Frontend.h"
#include "ivc/ir/Printer.h"

#include <tree_sitter/api.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>

using namespace ivc;
using namespace ivc::ir;

namespace {

// Everything the lowering produces, in text: the IR with byte offsets and
// op indices, the trace regions with every op they point at, the scope
// declarations and the diagnostics.
std::string dump(const ParsedFile &pf) {
  std::string out;
  llvm::raw_string_ostream os(out);
  PrintOptions opts;
  opts.byteOffsets = true;
  printOp(os, *pf.module.root(), 0, opts);
  std::vector<uint32_t> indices;
  std::function<void(const Op &)> walk = [&](const Op &op) {
    indices.push_back(op.index);
    for (const Region &r : op.regions)
      for (const Op *child : r.ops) {
        EXPECT_EQ(child->parentRegion, &r);
        EXPECT_EQ(r.parent, &op);
        walk(*child);
      }
  };
  walk(*pf.module.root());
  std::sort(indices.begin(), indices.end());
  for (size_t i = 0; i < indices.size(); ++i)
    EXPECT_EQ(indices[i], i) << "op indices are dense";
  EXPECT_EQ(indices.size(), pf.module.numOps());
  printTraces(os, pf.traces, opts);
  auto id = [](const Op *op) { return op ? std::to_string(op->index) : std::string("-"); };
  for (const TraceRegion &t : pf.traces) {
    os << "trace " << t.index << " with=" << id(t.withOp) << " call=" << id(t.call)
       << " receiver=" << id(t.receiverOp) << " header=";
    printRange(os, t.headerRange, opts);
    os << " call=";
    printRange(os, t.callRange, opts);
    os << " body=";
    printRange(os, t.bodyRange, opts);
    os << '\n';
    for (const Mediator &m : t.mediators) {
      os << "  with=" << id(m.withOp) << " call=" << id(m.call) << " body=";
      os << (m.body ? std::to_string(m.body - m.withOp->regions.data()) : "-") << " header=";
      for (const Op *h : m.header)
        os << id(h) << ',';
      os << '\n';
    }
  }
  os << "declarations:";
  for (const Op *d : pf.module.scopeDeclarations())
    os << ' ' << d->index;
  os << '\n';
  for (const Diagnostic &d : pf.diagnostics) {
    os << d.info().code << ' ';
    printRange(os, d.range, opts);
    os << ' ' << d.message << '\n';
  }
  return out;
}

const char *Document = R"py("""A notebook export."""
from __future__ import annotations
import os
from nnsight import LanguageModel

model = LanguageModel("gpt2")
counter = 0

def helper(h, scale=2):
    global counter
    counter += 1
    return h * scale

@decorate
class Config:
    layer = 3

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    model.transformer.h[0].output[0][:] = helper(hidden)
    logits = model.lm_head.output.save()

with model.session() as session:
    with model.trace() as tracer:
        with tracer.invoke("a"):
            clean = model.transformer.h[5].output[0].save()
        with tracer.invoke("b"):
            model.transformer.h[5].output[0][:, -1] = clean[:, -1]
        out = model.lm_head.output.save()

naïve = "caf\u00e9"  # a normalized identifier and an escaped string
match Config.layer:
    case {"key": x}:
        pass
    case _:
        pass

def outer():
    value = 1
    def inner():
        nonlocal value
        value += 1
    with model.trace("x") as tr:
        seen = [v for v in range(3) if v]
    return inner
)py";

// Byte offset -> tree-sitter point (rows and byte columns).
TSPoint pointAt(const std::string &text, size_t offset) {
  TSPoint p{0, 0};
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

// Replaces [at, at + removed) with `inserted`, edits `tree` to match.
std::string applyEdit(const std::string &text, size_t at, size_t removed,
                      const std::string &inserted, TSTree *tree) {
  std::string next = text.substr(0, at) + inserted + text.substr(at + removed);
  TSInputEdit edit;
  edit.start_byte = uint32_t(at);
  edit.old_end_byte = uint32_t(at + removed);
  edit.new_end_byte = uint32_t(at + inserted.size());
  edit.start_point = pointAt(text, at);
  edit.old_end_point = pointAt(text, at + removed);
  edit.new_end_point = pointAt(next, at + inserted.size());
  ts_tree_edit(tree, &edit);
  return next;
}

} // namespace

TEST(IncrementalFrontend, UnchangedDocumentCopiesEveryStatement) {
  Frontend fe;
  auto first = fe.parse(std::make_shared<SourceFile>("t.py", Document));
  auto again = fe.parse(std::make_shared<SourceFile>("t.py", Document), nullptr, first.get());
  size_t copied = 0, reusable = 0;
  for (const LoweredUnit &u : again->units) {
    copied += u.copiedFrom >= 0;
    reusable += u.reusable;
  }
  // Every statement but `from __future__` (whose meaning depends on what
  // comes before it) is copied.
  EXPECT_EQ(copied, again->units.size() - 1);
  EXPECT_EQ(reusable, copied);
  std::string expected = dump(*first);
  first.reset(); // the copy must not point into the previous parse
  EXPECT_EQ(dump(*again), expected);
}

TEST(IncrementalFrontend, RandomEditsGiveWhatAFreshParseGives) {
  const std::vector<std::string> snippets = {
      "\n", "x", " ", "(", ")", ":", "\"", "#", "\n    y = hidden * 2", "    ",
      "\nwith model.trace(p) as t:\n    z = 1\n", "global g\n", "from __future__ import x\n",
      "é", "\\", "def f():\n  pass\n", "\n\n"};
  std::mt19937 rng(20261122);
  Frontend incremental, fresh;
  std::string text = Document;
  auto previous = incremental.parse(std::make_shared<SourceFile>("t.py", text));
  TreeHandle tree(ts_tree_copy(previous->tree.get()));
  size_t copiedTotal = 0, partial = 0;
  for (int step = 0; step < 400; ++step) {
    size_t at = rng() % (text.size() + 1);
    // Keep edits on UTF-8 boundaries, as an editor does.
    while (at < text.size() && (uint8_t(text[at]) & 0xC0) == 0x80)
      ++at;
    size_t removed = 0;
    std::string inserted;
    if (rng() % 3 == 0) {
      removed = std::min<size_t>(rng() % 12, text.size() - at);
      while (at + removed < text.size() && (uint8_t(text[at + removed]) & 0xC0) == 0x80)
        ++removed;
    } else {
      inserted = snippets[rng() % snippets.size()];
    }
    text = applyEdit(text, at, removed, inserted, tree.get());
    // The same edited tree for both: tree-sitter may recover from a syntax
    // error differently when it re-parses incrementally.
    TreeHandle sameTree(ts_tree_copy(tree.get()));
    auto next = incremental.parse(std::make_shared<SourceFile>("t.py", text), tree.get(),
                                  previous.get());
    for (const LoweredUnit &u : next->units)
      copiedTotal += u.copiedFrom >= 0;
    auto expected = fresh.parse(std::make_shared<SourceFile>("t.py", text), sameTree.get());
    previous.reset(); // the copy must not point into the previous parse
    ASSERT_EQ(dump(*next), dump(*expected)) << "after edit " << step << ":\n" << text;
    // As the language server does: a tree of only the edited statements is
    // no base for the next incremental parse; the last whole one, edited, is.
    if (next->wholeTree)
      tree.reset(ts_tree_copy(next->tree.get()));
    partial += !next->wholeTree;
    previous = std::move(next);
    // Now and then, start again from the original text.
    if (step % 100 == 99)
      text = applyEdit(text, 0, text.size(), Document, tree.get());
  }
  // The test means something only if statements were copied.
  EXPECT_GT(copiedTotal, 400u * 5);
  EXPECT_GT(partial, 0u);
}

// Edits that leave the file valid, as most keystrokes of someone typing a
// statement do: only the edited statements are parsed, the rest is copied,
// and the result is what a parse of the whole file gives.
TEST(IncrementalFrontend, EditedStatementsAloneAreParsed) {
  const std::vector<std::string> lines = {
      "    y = hidden * 2\n", "x = 1\n", "\n", "# a comment\n", "def f():\n    return 1\n",
      "with model.trace(p) as t:\n    z = t\n", "        w = 3\n", "global g\n",
      "@decorate\nclass C:\n    pass\n", "from __future__ import division\n"};
  std::mt19937 rng(7);
  Frontend incremental, fresh;
  std::string text = Document;
  auto previous = incremental.parse(std::make_shared<SourceFile>("t.py", text));
  size_t partial = 0;
  for (int step = 0; step < 300; ++step) {
    // Insert or delete one whole line.
    std::vector<size_t> starts = {0};
    for (size_t i = 0; i + 1 < text.size(); ++i)
      if (text[i] == '\n')
        starts.push_back(i + 1);
    size_t at = starts[rng() % starts.size()];
    if (rng() % 3 == 0) {
      size_t end = text.find('\n', at);
      text.erase(at, end == std::string::npos ? std::string::npos : end - at + 1);
    } else {
      text.insert(at, lines[rng() % lines.size()]);
    }
    auto next = incremental.parse(std::make_shared<SourceFile>("t.py", text), nullptr,
                                  previous.get());
    auto expected = fresh.parse(std::make_shared<SourceFile>("t.py", text));
    previous.reset();
    ASSERT_EQ(dump(*next), dump(*expected)) << "after edit " << step << ":\n" << text;
    partial += !next->wholeTree;
    previous = std::move(next);
    if (expected->hasErrors() || step % 50 == 49) {
      text = Document;
      previous = incremental.parse(std::make_shared<SourceFile>("t.py", text));
    }
  }
  EXPECT_GT(partial, 100u);
}
