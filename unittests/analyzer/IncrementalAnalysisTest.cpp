// An analysis that reuses the previous one's findings (the language server's)
// must give exactly what an analysis from scratch gives, whatever the edit.
#include "AnalysisDump.h"

#include <gtest/gtest.h>

#include <random>

using namespace ivc;
using ivc::test::dumpAnalysis;

namespace {

// Helpers, aliases and module-level names that mediators in other
// statements depend on, so that edits anywhere change verdicts elsewhere.
const char *Document = R"py(import os
import json
from nnsight import LanguageModel

model = LanguageModel("gpt2")
run = os.system
scale = 2

def unembed(h):
    return model.lm_head(h) * scale

def leak(h):
    return run(str(h))

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    logits = unembed(hidden).save()

with model.trace("prompt") as tracer:
    with tracer.invoke("a"):
        clean = model.transformer.h[5].output[0].save()
    with tracer.invoke("b"):
        model.transformer.h[5].output[0][:, -1] = clean[:, -1]
        leak(clean)

with model.trace("x") as tracer:
    import subprocess
    out = json.dumps(hidden)
    hidden.backward()

def outer():
    with model.trace("y") as tr:
        acts = model.transformer.h[1].output.save()
    return acts
)py";

} // namespace

TEST(IncrementalAnalysis, RandomEditsGiveWhatAFreshAnalysisGives) {
  const std::vector<std::string> snippets = {
      "\n", "x", " ", "(", ")", ":", "#", "\n    y = hidden * 2", "\nscale = eval\n",
      "\nrun = print\n", "\ndef unembed(h):\n    return eval(h)\n", "\nhidden = globals\n",
      "\nwith model.trace(p) as tracer:\n    z = leak(1)\n", "import os\n", "global scale\n",
      "\n    hidden.save()", "\nmodel = other\n", "tracer", "\n\n", "from os import *\n",
      "from json import run\n", "\ndef eval(h):\n    return h\n"};
  std::mt19937 rng(7);
  Engine incremental, fresh;
  AnalysisOptions options;
  options.keepForReuse = true;
  std::string text = Document;
  auto previous = incremental.analyze(std::make_shared<SourceFile>("t.py", text), options);
  size_t reused = 0, mediators = 0, changedVerdicts = 0;
  std::string lastPlan = dumpAnalysis(*previous);
  for (int step = 0; step < 300; ++step) {
    size_t at = rng() % (text.size() + 1);
    if (rng() % 3 == 0)
      text.erase(at, std::min<size_t>(rng() % 10, text.size() - at));
    else
      text.insert(at, snippets[rng() % snippets.size()]);
    auto next = incremental.analyze(std::make_shared<SourceFile>("t.py", text), options, nullptr,
                                    previous.get());
    auto expected = fresh.analyze(std::make_shared<SourceFile>("t.py", text), AnalysisOptions());
    previous.reset(); // reused findings must not point into it
    std::string got = dumpAnalysis(*next);
    ASSERT_EQ(got, dumpAnalysis(*expected)) << "after edit " << step << ":\n" << text;
    changedVerdicts += got != lastPlan;
    lastPlan = got;
    reused += next->reusedMediators;
    for (const auto &t : next->facts)
      mediators += t.size();
    previous = std::move(next);
    if (step % 60 == 59)
      text = Document;
  }
  // Meaningful only if findings were reused, and edits changed findings.
  EXPECT_GT(reused, 60u);
  EXPECT_GT(changedVerdicts, 100u);
}

TEST(IncrementalAnalysis, ChangingAHelperReanalyzesTheMediatorsThatReachIt) {
  Engine engine;
  AnalysisOptions options;
  options.keepForReuse = true;
  std::string text = Document;
  auto first = engine.analyze(std::make_shared<SourceFile>("t.py", text), options);
  EXPECT_EQ(first->reusedMediators, 0u);
  // Nothing changed: every mediator's findings are reused.
  auto same = engine.analyze(std::make_shared<SourceFile>("t.py", text), options, nullptr,
                             first.get());
  size_t mediators = 0;
  for (const auto &t : same->facts)
    mediators += t.size();
  EXPECT_EQ(same->reusedMediators, mediators);
  // `scale` is read by unembed(), which the first trace calls: that trace's
  // mediator is analyzed again and now rejected; the others are reused.
  text.replace(text.find("scale = 2"), 9, "scale = eval");
  auto edited = engine.analyze(std::make_shared<SourceFile>("t.py", text), options, nullptr,
                               same.get());
  EXPECT_EQ(edited->reusedMediators, mediators - 1);
  EXPECT_EQ(edited->facts[0][0].tier, Tier::Reject);
  EXPECT_NE(first->facts[0][0].tier, Tier::Reject);
}

// Edits whose only effect is where a module-level name is bound, what a
// `from` import names, or what may change a list: each pair's second text
// must not reuse the first's findings where they differ.
TEST(IncrementalAnalysis, BindingOrderAndImportSourcesAreSeen) {
  const std::string head = "from nnsight import LanguageModel\nmodel = LanguageModel('gpt2')\n";
  const std::string trace = "with model.trace('a'):\n    system('x')\n    eval('1')\n";
  // Whether a list's items are known depends on every statement that reads it.
  const std::string call = "with model.trace('a'):\n    fns[0]('x')\n";
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"fns = [len]\n" + call, "fns = [len]\n" + call + "fns.append(print)\n"},
      {"fns = {0: len}\n" + call, "fns = {0: len}\ndef f():\n    fns[0] = print\n" + call},
      {"from json import *\n" + trace, "from os import *\n" + trace},
      {"from json import system\n" + trace, "from os import system\n" + trace},
      {"from .json import system\n" + trace, "from ..json import system\n" + trace},
      {"def eval(x):\n    return x\n" + trace, trace + "def eval(x):\n    return x\n"},
      {"eval = print\n" + trace + "eval = len\n", "eval = len\n" + trace + "eval = print\n"},
      {"system = print\nrun = system\n" + trace + "system = len\n",
       "system = len\nrun = system\n" + trace + "system = print\n"},
  };
  for (const auto &[before, after] : edits) {
    for (const auto &[from, to] : {std::pair(before, after), std::pair(after, before)}) {
      Engine incremental, fresh;
      AnalysisOptions options;
      options.keepForReuse = true;
      auto first = incremental.analyze(std::make_shared<SourceFile>("t.py", head + from), options);
      auto next = incremental.analyze(std::make_shared<SourceFile>("t.py", head + to), options,
                                      nullptr, first.get());
      auto expected =
          fresh.analyze(std::make_shared<SourceFile>("t.py", head + to), AnalysisOptions());
      EXPECT_EQ(dumpAnalysis(*next), dumpAnalysis(*expected)) << from << "\n--->\n" << to;
    }
  }
}
