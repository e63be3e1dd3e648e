// Every identifier of a file reaches the IR: a name the lowering dropped
// would be invisible to every pass (a blocked builtin in a construct ivc
// does not model would go unreported).
#include "ivc/frontend/Frontend.h"
#include "ivc/frontend/Grammar.h"
#include "ivc/frontend/Unicode.h"

#include "TestFiles.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <random>

using namespace ivc;
using namespace ivc::ir;
using ivc::test::pythonFiles;
using ivc::test::readFile;

namespace {

void collectOps(Op *op, std::vector<const Op *> &out) {
  out.push_back(op);
  for (Region &r : op->regions)
    for (Op *child : r.ops)
      collectOps(child, out);
}

void collectIdentifiers(TSNode n, std::vector<TSNode> &out) {
  if (Grammar::python().sym(n) == Sym::identifier) {
    out.push_back(n);
    return;
  }
  for (uint32_t i = 0, c = ts_node_child_count(n); i < c; ++i)
    collectIdentifiers(ts_node_child(n, i), out);
}

// Whether `n` is the `left` of a type alias statement: `type Name[...] = ...`.
bool isAliasName(TSNode n) {
  TSNode p = ts_node_parent(n);
  return Grammar::python().sym(p) == Sym::type_alias_statement &&
         ts_node_eq(ts_node_child_by_field_name(p, "left", 4), n);
}

// Names a statement declares rather than reads: a type alias's name and the
// type parameters of an alias, function or class (`[T: bound, *Ts]`), which
// the lowering leaves out (see Lowering::typeParameterBounds).
bool isTypeDeclaration(TSNode id) {
  const Grammar &g = Grammar::python();
  TSNode n = id;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); n = p, p = ts_node_parent(p)) {
    Sym s = g.sym(p);
    if (s == Sym::type || s == Sym::splat_type)
      continue;
    if (s == Sym::constrained_type && ts_node_eq(ts_node_named_child(p, 0), n))
      continue;
    if (s == Sym::generic_type && ts_node_eq(ts_node_named_child(p, 0), n))
      return isAliasName(ts_node_parent(p));
    if (s != Sym::type_parameter)
      return isAliasName(n);
    Sym owner = g.sym(ts_node_parent(p));
    if (owner == Sym::function_definition || owner == Sym::class_definition)
      return true;
    return owner == Sym::generic_type && isAliasName(ts_node_parent(ts_node_parent(p)));
  }
  return false;
}

bool mentions(const Op &op, std::string_view name) {
  for (std::string_view s : {op.text, op.text2, op.alias})
    if (s.find(name) != std::string_view::npos)
      return true;
  return false;
}

// The identifiers of `text` that no op spanning them names.
std::vector<std::string> droppedIdentifiers(const std::string &text) {
  Frontend fe;
  auto pf = fe.parse(std::make_shared<SourceFile>("t.py", text));
  std::vector<const Op *> ops;
  collectOps(pf->module.root(), ops);
  std::vector<TSNode> ids;
  collectIdentifiers(ts_tree_root_node(pf->tree.get()), ids);
  std::vector<std::string> dropped;
  for (TSNode id : ids) {
    if (isTypeDeclaration(id))
      continue;
    uint32_t b = ts_node_start_byte(id), e = ts_node_end_byte(id);
    std::string name = normalizeIdentifier(std::string_view(text).substr(b, e - b));
    // `from m import x` lowers to one op per imported name, spanning it,
    // each naming the module too.
    uint32_t lo = b, hi = e;
    for (TSNode p = ts_node_parent(id); !ts_node_is_null(p); p = ts_node_parent(p))
      if (Grammar::python().sym(p) == Sym::import_from_statement) {
        lo = ts_node_start_byte(p);
        hi = ts_node_end_byte(p);
      }
    bool found = false;
    for (const Op *op : ops)
      if (((op->range.begin.offset <= b && e <= op->range.end.offset) ||
           (lo <= op->range.begin.offset && op->range.end.offset <= hi)) &&
          mentions(*op, name)) {
        found = true;
        break;
      }
    if (!found)
      dropped.push_back(name + " at line " + std::to_string(ts_node_start_point(id).row + 1));
  }
  return dropped;
}

} // namespace

TEST(LoweringCoverage, EveryIdentifierOfTheShippedFilesReachesTheIR) {
  auto files = pythonFiles({IVC_SOURCE_DIR "/examples", IVC_SOURCE_DIR "/lit-tests",
                            IVC_SOURCE_DIR "/fuzz/corpus", IVC_TEST_CORPUS_DIR});
  for (const auto &path : files) {
    SCOPED_TRACE(path.string());
    for (const std::string &d : droppedIdentifiers(readFile(path)))
      ADD_FAILURE() << "dropped: " << d;
  }
  EXPECT_GT(files.size(), 250u);
}

// Every construct of the grammar, the unmodeled ones and broken code too.
TEST(LoweringCoverage, EveryIdentifierOfEveryConstructReachesTheIR) {
  const char *snippets[] = {
      "type A = a1\ntype B[T: b1, *U, **V] = b2[T] | b3.b4[b5, b6]\n",
      "def f[T: t1, U](x: x1 = x2, /, *a: a1, k: k1 = k2, **kw: kw1) -> r1[r2]:\n    pass\n",
      "class C[T](b1, b2, metaclass=m1, **k1):\n    x: x1 = x2\n",
      "@d1.d2(d3)\n@d4\nasync def f():\n    await a1\n    async for i in a2:\n        pass\n"
      "    async with a3 as (w1, w2):\n        pass\n    return [v1 async for v2 in a4 if v3]\n",
      "match m1:\n    case C1(p1, k=p2) | [p3, *p4] | {'a': p5, **p6}:\n        pass\n"
      "    case d1.d2 as p7 if g1:\n        pass\n    case (p8 := 1) | -1 | 1 + 2j:\n        pass\n",
      "try:\n    pass\nexcept* (E1, E2) as e1:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
      "global g1, g2\ndef f():\n    nonlocal n1\n    del d1, d2[d3], d4.d5\n",
      "assert a1, a2\nraise r1 from r2\nx = y1 if y2 else y3\n",
      "print >> p1, p2\nprint p3, p4\nexec e1 in e2, e3\n",
      "x = [*s1, *s2]\n{**m1, 'k': m2}\nf(*a1, **a2, k=a3)\n",
      "x[s1:s2:s3, ...]\nx = lambda l1, *l2, l3=l4, **l5: l6\n",
      "f'{f1!r:>{f2}} {f3=} {f\"{f4}\"}'\n",
      "with (w1 as w2, w3() as (w4, w5)):\n    pass\n",
      "for (t1, *t2) in t3:\n    pass\nelse:\n    pass\nwhile c1:\n    break\n",
      "x: ann1\nx += i1\n(v1 := v2)\n",
      "import a.b.c as d\nfrom . import e as f\nfrom .g.h import (i, j)\nfrom k import *\n",
      "x = (y1 for y2 in y3 for y4 in y5 if y6)\nz = {k1: k2 for k3, k4 in k5}\n",
      // broken code: what parses stays visible
      "def f(:\n    eval(e1)\n",
      "x = (e2, \ny = e3 +\n",
      "with model.trace(t1)\n    t2.save()\n",
      "class C(:\n    def m(self) e4:\n        pass\n",
  };
  for (const char *s : snippets) {
    SCOPED_TRACE(s);
    for (const std::string &d : droppedIdentifiers(s))
      ADD_FAILURE() << "dropped: " << d;
  }
}

// Broken code: error recovery leaves ERROR nodes anywhere in the tree, and
// what they name must stay visible all the same.
TEST(LoweringCoverage, EveryIdentifierOfBrokenCodeReachesTheIR) {
  std::vector<std::string> files;
  for (const auto &path : pythonFiles({IVC_SOURCE_DIR "/examples", IVC_SOURCE_DIR "/lit-tests"}))
    files.push_back(readFile(path));
  ASSERT_GT(files.size(), 50u);
  const char *tokens[] = {"(", ")", "[", "]", ":", ",", "=", ".", "\n", "    ", "lambda", "if",
                          "def", "with", "'", "*", "**", "@", "->", "import", "yield", "\\"};
  std::mt19937 rng(20261124);
  size_t edits = 0;
  for (const std::string &original : files) {
    for (int round = 0; round < 16; ++round) {
      std::string text = original;
      for (int k = 0; k < 3; ++k) {
        size_t at = rng() % (text.size() + 1);
        if (rng() % 2)
          text.erase(at, rng() % 6);
        else
          text.insert(at, tokens[rng() % std::size(tokens)]);
      }
      SCOPED_TRACE(text);
      ++edits;
      for (const std::string &d : droppedIdentifiers(text))
        ADD_FAILURE() << "dropped: " << d;
    }
  }
  EXPECT_GT(edits, 2000u);
}
