// Parsing only what trace regions reach (Frontend::parseReachable) must give
// the analysis the whole file gives, whenever the whole file parses: over
// real files, random edits, and every way Python binds a name.
#include "AnalysisDump.h"
#include "TestFiles.h"

#include "frontend/Skeleton.h"

#include <gtest/gtest.h>
#include <tree_sitter/api.h>

#include <fstream>
#include <random>

using namespace ivc;
using ivc::test::dumpAnalysis;
using ivc::test::pythonFiles;
using ivc::test::readFile;

namespace {

struct Pair {
  std::unique_ptr<Analysis> whole, reachable;
};

Pair analyzeBoth(const std::string &text, Engine &engine) {
  AnalysisOptions options;
  Pair p;
  p.whole = engine.analyze(std::make_shared<SourceFile>("t.py", text), options);
  options.reachableCodeOnly = true;
  p.reachable = engine.analyze(std::make_shared<SourceFile>("t.py", text), options);
  return p;
}

// Analyzes `text` both ways and expects the two analyses to agree.
Pair analyzeAgreeing(const std::string &text, Engine &engine) {
  Pair p = analyzeBoth(text, engine);
  EXPECT_EQ(dumpAnalysis(*p.reachable), dumpAnalysis(*p.whole));
  return p;
}

// The first line of each top-level statement the analysis lowered (1-based).
std::vector<uint32_t> parsedLines(const Analysis &a) {
  std::vector<uint32_t> lines;
  for (const LoweredUnit &u : a.parsed->units)
    lines.push_back(u.line + 1);
  return lines;
}

bool parsedLine(const Analysis &a, uint32_t line) {
  auto lines = parsedLines(a);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

// Line 8 binds `h` in one of Python's many ways; the trace calls it; the
// definition on line 5 is reached by nothing.
std::string withBinding(const std::string &binding) {
  return "import os\nfrom nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n\n"
         "def unrelated():\n    return os.getcwd()\n\n" +
         binding +
         "\n\nwith model.trace('x'):\n    out = h(model.transformer.h[0].output).save()\n";
}

// Whether the two analyses must agree: the whole file parses, and whatever
// the lowering reported lies in statements both parsed.
bool comparable(const Pair &p) {
  if (ts_node_has_error(ts_tree_root_node(p.whole->parsed->tree.get())))
    return false;
  for (const Diagnostic &d : p.whole->parsed->diagnostics) {
    bool kept = false;
    for (const LoweredUnit &u : p.reachable->parsed->units)
      kept |= u.begin <= d.range.begin.offset && d.range.end.offset <= u.end;
    if (!kept)
      return false;
  }
  return true;
}

// Whether CPython accepts `text` (tree-sitter also accepts some code CPython
// rejects, such as a line break right after `with`, where the skeleton follows
// CPython's line structure).
bool cpythonAccepts(const std::string &text) {
  std::string path = testing::TempDir() + "ivc-reachable-input.py";
  std::ofstream(path, std::ios::binary) << text;
  std::string cmd = "/usr/bin/python3 -c "
                    "'import ast, sys; ast.parse(open(sys.argv[1], \"rb\").read())' " +
                    path + " 2>/dev/null";
  return std::system(cmd.c_str()) == 0;
}

} // namespace

TEST(ReachableParse, KeepsEveryWayOfBindingAName) {
  const char *bindings[] = {
      "h = eval",
      "h: object = eval",
      "h, k = eval, 1",
      "[h] = [eval]",
      "h = k = eval",
      "x = 1; h = eval",
      "h \\\n  = eval",
      "h += eval",
      "for h in [eval]:\n    pass",
      "for a[0 in a], h in [(1, eval)]:\n    pass",
      "with open('f') as h:\n    pass",
      "with open('f') as (h, k):\n    pass",
      "import os as h",
      "import h.path",
      "from os import system as h",
      "from os import (getcwd,\n    system as h)",
      "try:\n    pass\nexcept Exception as h:\n    pass",
      "if (h := eval):\n    pass",
      "print(f'{(h := eval)}')",
      "print(f'{h:=eval}')", // a format spec to CPython, a `:=` to tree-sitter
      "xs = [(h := eval) for _ in range(1)]",
      "match eval:\n    case h:\n        pass",
      "def set_h():\n    global h\n    h = eval",
      "def g(x=(h := eval)):\n    pass",
      "@(h := staticmethod)\ndef g():\n    pass",
      "class h:\n    pass",
      "@staticmethod\nclass h:\n    pass",
      "def h():\n    return eval",
      "async def h():\n    return eval",
      "if True:\n    def h():\n        return eval",
      "if False:\n    pass\nelse:\n    h = eval",
      "del h",
      "type h = eval",
      "type h[T: eval] = T",
      "\xef\xbd\x88 = eval", // a fullwidth h, the same name after NFKC
  };
  Engine engine;
  for (const char *b : bindings) {
    std::string text = withBinding(b);
    SCOPED_TRACE(text);
    Pair p = analyzeAgreeing(text, engine);
    EXPECT_TRUE(parsedLine(*p.reachable, 8)) << "the binding was skipped";
    EXPECT_FALSE(parsedLine(*p.reachable, 5)) << "the unrelated definition was parsed";
    EXPECT_GT(p.reachable->parsed->skippedBytes, 0u);
  }
}

TEST(ReachableParse, FollowsNamesTransitively) {
  std::string text = "from nnsight import LanguageModel\n"
                     "model = LanguageModel('gpt2')\n"
                     "def leaf(x):\n    return eval(x)\n"
                     "def middle(x):\n    return leaf(x)\n"
                     "alias = middle\n"
                     "def plot(x):\n    return x\n"
                     "if __name__ == '__main__':\n    plot(model)\n"
                     "with model.trace('x'):\n    alias(model.lm_head.output)\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(parsedLines(*p.reachable), (std::vector<uint32_t>{1, 2, 3, 5, 7, 12}));
  EXPECT_EQ(p.reachable->facts[0][0].tier, Tier::Reject);
}

TEST(ReachableParse, FollowsNamesReadInsideFStrings) {
  std::string text = "from nnsight import LanguageModel\n"
                     "model = LanguageModel('gpt2')\n"
                     "def show(x):\n    return eval(x)\n"
                     "def unused():\n    pass\n"
                     "with model.trace('x'):\n"
                     "    msg = f\"{show(model.lm_head.output)!r:>{10}}\"\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(parsedLines(*p.reachable), (std::vector<uint32_t>{1, 2, 3, 7}));
}

TEST(ReachableParse, FindsTraceRegionsAnywhere) {
  std::string text = "from nnsight import LanguageModel\n"
                     "model = LanguageModel('gpt2')\n"
                     "def unused():\n    pass\n"
                     "def run():\n    with model.trace('a'):\n"
                     "        x = model.lm_head.output.save()\n"
                     "class Experiment:\n    def go(self):\n"
                     "        with (\n            model.generate('b') as t,\n        ):\n"
                     "            y = model.lm_head.output.save()\n"
                     "async def later():\n    async with model.trace('c'):\n        pass\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(p.reachable->parsed->traces.size(), p.whole->parsed->traces.size());
  EXPECT_FALSE(parsedLine(*p.reachable, 3));
}

TEST(ReachableParse, StringsAndCommentsDoNotSplitStatements) {
  std::string text = "from nnsight import LanguageModel\n"
                     "model = LanguageModel('gpt2')\n"
                     "DOC = '''\ndef h():\n    pass\n'''\n"
                     "NOTE = \"a \\\n# not a comment\"\n"
                     "def unused():\n    pass\n"
                     "with model.trace('x'):\n    out = DOC + NOTE\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(parsedLines(*p.reachable), (std::vector<uint32_t>{1, 2, 3, 7, 11}));
}

TEST(ReachableParse, SyntaxErrorsInSkippedCodeAreNotReported) {
  std::string text = withBinding("h = print") + "\ndef broken():\n    x = = 1\n";
  Engine engine;
  Pair p = analyzeBoth(text, engine);
  EXPECT_TRUE(p.whole->hasErrors());
  EXPECT_FALSE(p.reachable->hasErrors());
  EXPECT_GT(p.reachable->parsed->skippedBytes, 0u);
}

// Hundreds of kept runs between skipped statements (a notebook export):
// the whole file is parsed when it is clean, and a syntax error in skipped
// code still goes unreported.
TEST(ReachableParse, ManyRunsGiveWhatTheWholeFileGives) {
  std::string cell = "print('cell')\nh = model.transformer.h[0]\n"
                     "with model.trace('x'):\n    out = h.output.save()\n";
  std::string text = "from nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n";
  for (int i = 0; i < 200; ++i)
    text += cell;
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(p.reachable->facts.size(), 200u);
  p = analyzeBoth(text + "def broken():\n    x = = 1\n", engine);
  EXPECT_TRUE(p.whole->hasErrors());
  EXPECT_FALSE(p.reachable->hasErrors());
  EXPECT_GT(p.reachable->parsed->skippedBytes, 0u);
  EXPECT_EQ(p.reachable->facts.size(), 200u);
}

TEST(ReachableParse, SyntaxErrorsInKeptCodeParseTheWholeFile) {
  std::string text = withBinding("h = (print,") + "\ndef broken(:\n    pass\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_EQ(p.reachable->parsed->skippedBytes, 0u);
  // A kept statement that tree-sitter rejects although the skeleton does not.
  text = withBinding("h = print +") + "\ndef broken(:\n    pass\n";
  p = analyzeAgreeing(text, engine);
  EXPECT_EQ(p.reachable->parsed->skippedBytes, 0u);
}

TEST(ReachableParse, GivesUpOnLayoutItDoesNotFollow) {
  const char *layouts[] = {"\f", "x = 'open\n", "x = '''open\n", "x = (1,\n", "x = 1)\n",
                           "x = 1 \\ 2\n", "x = 1\ry = 2\n", "  x = 1\n",
                           // CPython counts the indentation of the line a
                           // leading continuation joins
                           "if x:\n    y = 1\n\\\n    eval(y)\n", "\\\n\nx = 1\n",
                           "def f():\n    \\\n\n    return 1\n"};
  for (const char *l : layouts) {
    std::string text = std::string(l) + withBinding("h = print");
    SCOPED_TRACE(text);
    Skeleton sk = scanSkeleton(text, {"trace"});
    EXPECT_FALSE(sk.complete);
  }
  EXPECT_TRUE(scanSkeleton(withBinding("h = print"), {"trace"}).complete);

  // The `eval` line is in the trace's body.
  Engine engine;
  Pair p = analyzeAgreeing("from nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n"
                       "with model.trace('x'):\n    y = model.lm_head.output.save()\n"
                       "\\\n    eval('1')\ndef unrelated():\n    pass\n", engine);
  EXPECT_EQ(p.reachable->facts[0][0].tier, Tier::Reject);
}

TEST(ReachableParse, KeepsWhatPrecedesAFutureImport) {
  std::string text = "import torch\ndef unused():\n    pass\nfrom __future__ import division\n"
                     "def later():\n    pass\n";
  Engine engine;
  Pair p = analyzeAgreeing(text, engine);
  EXPECT_TRUE(p.reachable->hasErrors()); // misplaced: after `import torch`
  EXPECT_EQ(parsedLines(*p.reachable), (std::vector<uint32_t>{1, 2, 4}));
}

// An f-string's replacement fields are code whose strings may reuse its
// quotes (Python 3.12): a lexer that ended the f-string at the first quote
// would see `"""` open a string there, and hide the line that rebinds `len`.
TEST(ReachableParse, FStringsFollowPython312) {
  std::string text = R"py(from nnsight import LanguageModel
model = LanguageModel('gpt2')
def helper():
    return f"{"""abc"""}"
len = eval
def other():
    """doc"""

with model.trace('x'):
    out = len(model.lm_head.output)
)py";
  Engine engine;
  Pair p = analyzeBoth(text, engine);
  EXPECT_TRUE(parsedLine(*p.reachable, 5)) << "the line rebinding len was skipped";
  EXPECT_EQ(p.reachable->facts[0][0].tier, Tier::Reject);

  const char *fstrings[] = {
      R"(f"{x["k"]}")",      R"(f'{x!r:>{width}}')", R"(rf"\{x}")",
      R"(f"\N{DASH}{x}")",   R"(f'{"}"}{x}')",        R"(f'{{literal}} {x}')",
      "f'''{\n  x  # a comment\n}'''", R"(f"{f'{x}'}")", R"(F'{x:{w}.{p}}')",
      R"(t'{x}')"};
  for (const char *f : fstrings) {
    std::string code = std::string("a = ") + f + "\nb = 1\n";
    SCOPED_TRACE(code);
    Skeleton sk = scanSkeleton(code, {"trace"});
    ASSERT_TRUE(sk.complete);
    ASSERT_EQ(sk.statements.size(), 2u);
    std::vector<uint64_t> names;
    namesSpelled(code, sk.statements[0], names);
    EXPECT_NE(std::find(names.begin(), names.end(), nameHash("x")), names.end());
  }
  for (const char *bad : {"f'{x'", "f'}'", "f'{x:'", "f'{x'\n'}'"}) {
    SCOPED_TRACE(bad);
    EXPECT_FALSE(scanSkeleton(std::string("a = ") + bad + "\n", {"trace"}).complete);
  }
}

// Inputs a red team found where the two analyses differed.
TEST(ReachableParse, ReadsBindingsAndTracesAsTheLoweringDoes) {
  Engine engine;
  auto same = [&](const std::string &text) {
    SCOPED_TRACE(text);
    Pair p = analyzeAgreeing(text, engine);
    EXPECT_GT(p.reachable->parsed->skippedBytes, 0u);
  };
  // The lowering NFKC-normalizes attribute names: this is a trace.
  same("from nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n"
       "def unrelated():\n    pass\n"
       "with model.\xef\xbd\x94race('x'):\n    y = eval(model.lm_head.output)\n");
  // `1else` is a number and a keyword: the name after `-` is read.
  same(withBinding("len = eval") + "    n = 0 if 1else-len(out)\n");
  // A format spec to CPython, code to tree-sitter: `len` is read.
  same(withBinding("len = eval") + "    s = f'{h:=len}'\n");
  // A trailing comment of a trace's body is in its block.
  same(withBinding("h = print") + "    # more layers\n\n");
  // `case` is a soft keyword, and a name that can be bound.
  same("from nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n"
       "def unrelated():\n    pass\ncase = eval\n"
       "with model.trace('x'):\n    y = case(model.lm_head.output)\n");
}

TEST(ReachableParse, StarImportsAndFutureImportsAreAlwaysKept) {
  Skeleton sk = scanSkeleton("from __future__ import annotations\nfrom os import *\nx = 1\n"
                             "__builtins__ = {}\n",
                             {"trace"});
  ASSERT_TRUE(sk.complete);
  ASSERT_EQ(sk.statements.size(), 4u);
  EXPECT_TRUE(sk.statements[0].futureImport);
  EXPECT_TRUE(sk.statements[1].alwaysParse);
  EXPECT_FALSE(sk.statements[2].alwaysParse);
  EXPECT_TRUE(sk.statements[3].alwaysParse);
}

// Random edits of a document with helpers, aliases and traces: whenever the
// file is Python, both analyses agree.
TEST(ReachableParse, RandomEditsGiveWhatTheWholeFileGives) {
  const std::string document = withBinding("h = print") +
                               "\ndef helper(x):\n    return h(x)\n"
                               "\ndef plot(x):\n    return x\n"
                               "\nwith model.trace('y') as tracer:\n    v = helper(1)\n";
  const std::vector<std::string> snippets = {
      "\n", "x", " ", ":", "#", "'", "\n    y = helper(2)", "\nh = eval\n",
      "\ndef plot(x):\n    return eval(x)\n", "\nplot = h\n",
      "\nwith model.trace(p):\n    plot(1)\n",
      "global h\n", "\n@helper\ndef z():\n    pass\n", "import os\n", "\n\n", "f'{(h := exec)}'"};
  std::mt19937 rng(11);
  Engine engine;
  size_t compared = 0, skipping = 0;
  for (int step = 0; step < 800; ++step) {
    std::string text = document;
    for (int edits = 1 + rng() % 3; edits > 0; --edits) {
      size_t at = rng() % (text.size() + 1);
      if (rng() % 2) // at a line start: more edits keep the file Python
        at = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
      if (rng() % 3 == 0)
        text.erase(at, std::min<size_t>(rng() % 10, text.size() - at));
      else
        text.insert(at, snippets[rng() % snippets.size()]);
    }
    Pair p = analyzeBoth(text, engine);
    if (!comparable(p))
      continue;
    std::string got = dumpAnalysis(*p.reachable), expected = dumpAnalysis(*p.whole);
    if (got != expected && cpythonAccepts(text)) {
      ASSERT_EQ(got, expected) << "after edit " << step << ":\n" << text;
    }
    ++compared;
    skipping += p.reachable->parsed->skippedBytes > 0;
  }
  EXPECT_GT(compared, 200u);
  EXPECT_GT(skipping, 100u);
}

// Every example, every lit test input and a generated corpus of research
// scripts: the same analysis, and most of the corpus left unparsed.
TEST(ReachableParse, FilesGiveWhatTheWholeFileGives) {
  Engine engine;
  size_t corpusBytes = 0, corpusSkipped = 0;
  auto files = pythonFiles({IVC_SOURCE_DIR "/examples", IVC_SOURCE_DIR "/lit-tests",
                            IVC_TEST_CORPUS_DIR});
  for (const auto &path : files) {
    std::string text = readFile(path);
    SCOPED_TRACE(path.string());
    Pair p = analyzeBoth(text, engine);
    if (comparable(p)) {
      EXPECT_EQ(dumpAnalysis(*p.reachable), dumpAnalysis(*p.whole));
    }
    if (path.string().starts_with(IVC_TEST_CORPUS_DIR)) {
      corpusBytes += text.size();
      corpusSkipped += p.reachable->parsed->skippedBytes;
    }
  }
  EXPECT_GT(files.size(), 250u);
  ASSERT_GT(corpusBytes, 0u);
  EXPECT_GT(double(corpusSkipped) / double(corpusBytes), 0.8);
}
