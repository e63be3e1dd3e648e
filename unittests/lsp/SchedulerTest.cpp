//===- SchedulerTest.cpp - Superseded and cancelled analyses -------------===//
#include "lsp/Scheduler.h"

#include <gtest/gtest.h>

#include <mutex>

using namespace ivc;
using namespace ivc::lsp;

namespace {

const std::string Uri = "file:///t/s.py";

Job job(int64_t version, std::string text, const std::string &uri = Uri) {
  Job j;
  j.snapshot.uri = uri;
  j.snapshot.version = version;
  j.snapshot.generation = uint64_t(version);
  j.snapshot.source = std::make_shared<SourceFile>("s.py", std::move(text));
  j.policy = std::make_shared<const Policy>(ndifPolicy());
  return j;
}

// Records the versions the scheduler publishes.
struct Published {
  std::mutex mutex;
  std::vector<int64_t> versions;
  std::vector<std::string> uris;
  Scheduler::ResultHandler handler() {
    return [this](const ResultPtr &r) {
      std::lock_guard<std::mutex> lock(mutex);
      versions.push_back(r->version);
      uris.push_back(r->uri);
    };
  }
};

std::string bigFile() {
  std::string text;
  for (int i = 0; i < 600; ++i)
    text += "with model.trace('p') as tracer:\n    h" + std::to_string(i) +
            " = model.transformer.h[0].output.save()\n";
  return text;
}

} // namespace

TEST(EngineCancellation, ACancelledAnalysisReturnsNothing) {
  Engine engine;
  std::atomic<bool> cancelled{true};
  AnalysisOptions options;
  options.cancelled = &cancelled;
  auto source = std::make_shared<SourceFile>("c.py", "with m.trace():\n    x = 1\n");
  EXPECT_EQ(engine.analyze(source, options), nullptr);
  cancelled = false;
  EXPECT_NE(engine.analyze(source, options), nullptr);
}

TEST(Scheduler, ANewerVersionSupersedesAQueuedOne) {
  Published published;
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/true);
  s.schedule(job(1, "x = 1\n"));
  s.schedule(job(2, "x = 2\n"));
  s.schedule(job(3, "x = 3\n"));
  s.release();
  s.waitIdle();
  EXPECT_EQ(published.versions, std::vector<int64_t>{3});
}

TEST(Scheduler, WaitersGetTheNewestAnalysis) {
  Published published;
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/true);
  s.schedule(job(1, "x = 1\n"));
  std::vector<int64_t> seen;
  s.whenReady(Uri, [&](const ResultPtr &r) { seen.push_back(r ? r->version : -1); });
  s.schedule(job(2, "x = 2\n"));
  EXPECT_TRUE(seen.empty()); // nothing analyzed yet
  s.release();
  s.waitIdle();
  EXPECT_EQ(seen, std::vector<int64_t>{2});
  // Once fresh, a waiter runs at once.
  s.whenReady(Uri, [&](const ResultPtr &r) { seen.push_back(r ? r->version : -1); });
  EXPECT_EQ(seen, (std::vector<int64_t>{2, 2}));
  // An unknown document: at once, with nothing.
  s.whenReady("file:///other.py", [&](const ResultPtr &r) { seen.push_back(r ? r->version : -1); });
  EXPECT_EQ(seen.back(), -1);
}

TEST(Scheduler, ClosingADocumentAnswersItsWaiters) {
  Published published;
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/true);
  s.schedule(job(1, "x = 1\n"));
  bool answered = false, empty = false;
  s.whenReady(Uri, [&](const ResultPtr &r) {
    answered = true;
    empty = !r;
  });
  s.remove(Uri);
  EXPECT_TRUE(answered);
  EXPECT_TRUE(empty);
  s.release();
  s.waitIdle();
  EXPECT_TRUE(published.versions.empty());
}

// A running analysis of a large file is cancelled when a newer version comes:
// whatever the timing, the last publication is the newest version and none
// comes after it.
TEST(Scheduler, ARunningAnalysisIsCancelledByANewerVersion) {
  Published published;
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/false);
  std::string text = bigFile();
  for (int64_t v = 1; v <= 5; ++v)
    s.schedule(job(v, text + "# v" + std::to_string(v) + "\n"));
  s.waitIdle();
  ASSERT_FALSE(published.versions.empty());
  EXPECT_EQ(published.versions.back(), 5);
  EXPECT_LE(published.versions.size(), 5u);
  EXPECT_TRUE(std::is_sorted(published.versions.begin(), published.versions.end()));
}

// Two documents whose sources together pass the cap: the one used least
// recently loses its analysis, and gets it back (the same text, version and
// result id) when a request asks for it.
TEST(Scheduler, AnalysesPastTheCapAreDroppedAndRedoneOnDemand) {
  Published published;
  const std::string A = "file:///t/a.py", B = "file:///t/b.py";
  std::string text = "with model.trace('p'):\n    h = model.transformer.h[0].output.save()\n";
  std::vector<std::string> dropped; // on the worker thread, read after waitIdle()
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/false,
              /*retainedBytes=*/text.size() + 10,
              [&](const AnalysisResult &r) { dropped.push_back(r.uri); });
  s.schedule(job(1, text, A));
  s.waitIdle();
  uint64_t seqA = 0;
  s.whenReady(A, [&](const ResultPtr &r) { seqA = r ? r->seq : 0; });
  ASSERT_NE(seqA, 0u);
  s.schedule(job(7, text, B));
  s.waitIdle();
  EXPECT_EQ(published.uris, (std::vector<std::string>{A, B}));
  EXPECT_EQ(dropped, std::vector<std::string>{A});

  // A was dropped when B's analysis was kept: asking for it runs it again.
  ResultPtr again;
  std::mutex m;
  s.whenReady(A, [&](const ResultPtr &r) {
    std::lock_guard<std::mutex> lock(m);
    again = r;
  });
  s.waitIdle();
  {
    std::lock_guard<std::mutex> lock(m);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->version, 1);
    EXPECT_EQ(again->seq, seqA);
    ASSERT_EQ(again->analysis->facts.size(), 1u); // its one trace
  }
  EXPECT_EQ(published.uris, (std::vector<std::string>{A, B, A}));
  EXPECT_EQ(dropped, (std::vector<std::string>{A, B}));
  // ... and B is the one dropped now; A, kept, answers at once.
  bool atOnce = false;
  s.whenReady(A, [&](const ResultPtr &r) { atOnce = r != nullptr; });
  EXPECT_TRUE(atOnce);
  EXPECT_EQ(published.uris.size(), 3u);

  // An edit of a dropped document analyzes the new text; the old is not redone.
  s.schedule(job(8, text + "# edited\n", B));
  s.waitIdle();
  EXPECT_EQ(published.versions, (std::vector<int64_t>{1, 7, 1, 8}));
}

// A document larger than the cap keeps its analysis while it is the newest.
TEST(Scheduler, TheNewestAnalysisIsKeptWhateverItsSize) {
  Published published;
  Scheduler s(published.handler(), [](const std::string &) {}, /*hold=*/false,
              /*retainedBytes=*/1);
  s.schedule(job(1, "x = 1\n"));
  s.waitIdle();
  bool atOnce = false;
  s.whenReady(Uri, [&](const ResultPtr &r) { atOnce = r != nullptr; });
  EXPECT_TRUE(atOnce);
  EXPECT_EQ(published.versions.size(), 1u);
}
