#include "ivc/frontend/Frontend.h"
#include "ivc/frontend/Grammar.h"

#include <tree_sitter/parser.h>

#include <gtest/gtest.h>

using namespace ivc;
using namespace ivc::ir;

namespace {
std::unique_ptr<ParsedFile> parse(std::string text, FrontendOptions opts = {}) {
  Frontend fe(std::move(opts));
  return fe.parse(std::make_shared<SourceFile>("t.py", std::move(text)));
}

template <typename F> void walk(Op *op, F &&f) {
  f(op);
  for (Region &r : op->regions)
    for (Op *child : r.ops)
      walk(child, f);
}

Op *findName(ParsedFile &pf, std::string_view name) {
  Op *found = nullptr;
  walk(pf.module.root(), [&](Op *op) {
    if (!found && op->is(OpKind::Name) && op->text == name)
      found = op;
  });
  return found;
}
} // namespace

TEST(Grammar, AbiOfTheShippedGrammarIsAccepted) {
  EXPECT_FALSE(Grammar::checkAbi(tree_sitter_python()).has_value());
}

TEST(Grammar, AbiMismatchIsAClearError) {
  TSLanguage future = *tree_sitter_python();
  future.version = TREE_SITTER_LANGUAGE_VERSION + 1;
  auto err = Grammar::checkAbi(&future);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->find("ABI version " + std::to_string(TREE_SITTER_LANGUAGE_VERSION + 1)),
            std::string::npos);
  EXPECT_NE(err->find("grammar/package-lock.json"), std::string::npos);
}

TEST(Lowering, RangesCountBytesAndLines) {
  // é is two bytes: `eval` starts at byte column 10 of line 1 (0-based).
  auto pf = parse("x = 1\ns = \"\xC3\xA9\"; eval(s)\n");
  Op *eval = findName(*pf, "eval");
  ASSERT_NE(eval, nullptr);
  EXPECT_EQ(eval->range.begin.line, 1u);
  EXPECT_EQ(eval->range.begin.column, 10u);
  EXPECT_EQ(eval->range.begin.offset, 16u);
  EXPECT_EQ(eval->range.end.offset, 20u);
  EXPECT_EQ(pf->source->slice(eval->range), "eval");
}

TEST(Lowering, NormalizedIdentifierKeepsItsSourceRange) {
  auto pf = parse("\xEF\xBD\x85val(x)\n"); // ｅval(x)
  Op *eval = findName(*pf, "eval");
  ASSERT_NE(eval, nullptr);
  EXPECT_EQ(eval->range.begin.offset, 0u);
  EXPECT_EQ(eval->range.end.offset, 6u); // three bytes for ｅ, then "val"
}

TEST(Lowering, ConfigurableTraceMethods) {
  FrontendOptions opts;
  opts.traceMethods = {"run_remote"};
  auto pf = parse("with lm.run_remote(p) as t:\n    x = 1\nwith lm.trace(p):\n    y = 2\n", opts);
  ASSERT_EQ(pf->traces.size(), 1u);
  EXPECT_EQ(pf->traces[0].method, "run_remote");
  EXPECT_EQ(pf->traces[0].receiver, "lm");
  EXPECT_EQ(pf->traces[0].tracerName, "t");
}

TEST(Lowering, InvokeHeaderIsTheInvokeArguments) {
  auto pf = parse("with m.trace() as tr:\n    with tr.invoke(secret()):\n        pass\n");
  ASSERT_EQ(pf->traces.size(), 1u);
  ASSERT_EQ(pf->traces[0].mediators.size(), 1u);
  const Mediator &m = pf->traces[0].mediators[0];
  bool sawSecret = false;
  for (Op *op : m.header)
    sawSecret |= op->is(OpKind::Name) && op->text == "secret";
  EXPECT_TRUE(sawSecret);
}

TEST(Lowering, SyntaxErrorsStillLowerTheRest) {
  auto pf = parse("with m.trace() as t:\n    x = (1,\ny = eval(z)\n");
  EXPECT_TRUE(pf->hasErrors());
  EXPECT_NE(findName(*pf, "eval"), nullptr);
}
