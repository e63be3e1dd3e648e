//===- Scheduler.h - Analyses on a worker thread, newest version first ----===//
//
// One worker thread runs the engine. Each document has at most one queued
// job: scheduling a newer one replaces it, and cancels the running analysis
// of that document (the engine checks the flag between mediators), so a
// burst of keystrokes costs one analysis, not one per keystroke, and there
// is no fixed debounce delay. A result that a newer job has superseded is
// dropped, never published. Requests that need an analysis (hover, code
// actions, ...) wait for the one of the newest version.
//
// An analysis holds 100-300 bytes per byte of source, so the results kept
// for every open document are capped by the size of their sources: past the
// cap the least recently used are dropped, and analyzed again when asked for.
// (The server then drops the document's tree too: a tree takes 30-40 bytes
// per byte of source, and the next edit of the document parses it whole.)
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_SCHEDULER_H
#define IVC_LIB_LSP_SCHEDULER_H

#include "Reaper.h"

#include "ivc/engine/Engine.h"
#include "ivc/lsp/DocumentStore.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace ivc::lsp {

struct AnalysisResult {
  std::string uri;
  int64_t version = 0;       // the client's version of the analyzed text
  uint64_t generation = 0;   // the document store's (see Snapshot)
  /// Names this analysis among all the server ran: a new text or a new
  /// policy gets a new one (pull diagnostics' resultId).
  uint64_t seq = 0;
  std::shared_ptr<const Analysis> analysis;
};
using ResultPtr = std::shared_ptr<const AnalysisResult>;

struct Job {
  Snapshot snapshot;
  std::shared_ptr<const Policy> policy;
};

class Scheduler {
public:
  /// Called on the worker thread with each fresh result, before the
  /// requests waiting for it.
  using ResultHandler = std::function<void(const ResultPtr &)>;
  /// Called with the newest result, or null when the document was closed or
  /// its analysis failed.
  using Waiter = std::function<void(const ResultPtr &)>;
  using Logger = std::function<void(const std::string &)>;
  /// Called on the worker thread with each result dropped to keep within
  /// the cap.
  using DropHandler = std::function<void(const AnalysisResult &)>;

  /// `hold`: queue jobs but run none until release() (deterministic tests of
  /// superseded versions). `retainedBytes`: the most source, over all open
  /// documents, whose analyses are kept (the newest one is kept whatever
  /// its size).
  Scheduler(ResultHandler onResult, Logger log, bool hold,
            size_t retainedBytes = DefaultRetainedBytes, DropHandler onDrop = {});
  static constexpr size_t DefaultRetainedBytes = size_t(8) << 20;
  ~Scheduler();

  /// Queues the analysis of a newer version (or of the same text under a new
  /// policy); it supersedes the queued and running ones of that document.
  void schedule(Job job);
  /// Forgets a closed document: drops its job and cancels its analysis.
  void remove(const std::string &uri);
  /// Runs `waiter` with the analysis of the newest scheduled version: now if
  /// it is done, else on the worker thread once it is.
  void whenReady(const std::string &uri, Waiter waiter);

  void release();
  /// Blocks until no analysis runs and none can start (all done, or held).
  void waitIdle();
  /// Cancels the running analysis and joins the worker.
  void stop();

private:
  struct Entry {
    uint64_t seq = 0;     // of the newest scheduled job
    uint64_t doneSeq = 0; // of the newest finished one; waiters wait while it is older
    std::optional<Job> queued;
    ResultPtr result; // the newest finished analysis
    std::vector<Waiter> waiters;
    /// What `result` analyzed (without its tree): run again when a dropped
    /// result is asked for.
    std::optional<Job> analyzed;
    bool dropped = false; // `result` was dropped to keep within the cap
    uint64_t lastUse = 0;
  };
  void run();
  void runOne(std::unique_lock<std::mutex> &lock);
  /// Drops the least recently used results but `keep`'s until the kept
  /// sources fit the cap; returns them, to be freed without the lock.
  std::vector<ResultPtr> dropOverCap(const std::string &keep);

  ResultHandler onResult_;
  Logger log_;
  DropHandler onDrop_;
  Engine engine_; // used by the worker only
  std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::map<std::string, Entry> entries_;
  std::deque<std::string> order_; // documents with a queued job, oldest first
  uint64_t nextSeq_ = 0;
  uint64_t useClock_ = 0;
  size_t retainedBytes_;
  std::string running_; // uri of the running analysis, or empty
  std::atomic<bool> cancel_{false};
  bool held_;
  bool stopping_ = false;
  Reaper reaper_; // before worker_: the worker uses it until it is joined
  std::thread worker_;
};

} // namespace ivc::lsp

#endif
