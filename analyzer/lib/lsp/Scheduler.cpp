//===- Scheduler.cpp ------------------------------------------------------===//
#include "Scheduler.h"

#include "ivc/support/Stack.h"

#include <exception>

namespace ivc::lsp {

Scheduler::Scheduler(ResultHandler onResult, Logger log, bool hold, size_t retainedBytes,
                     DropHandler onDrop)
    : onResult_(std::move(onResult)), log_(std::move(log)), onDrop_(std::move(onDrop)),
      retainedBytes_(retainedBytes), held_(hold) {
  // The analysis thread gets the analysis's stack once (Stack.h), not at
  // every analysis.
  worker_ = std::thread([this] { runWithAnalysisStack([this] { run(); }); });
}

Scheduler::~Scheduler() { stop(); }

void Scheduler::schedule(Job job) {
  std::optional<Job> dropped, stale; // destroyed outside the lock
  std::lock_guard<std::mutex> lock(mutex_);
  Entry &e = entries_[job.snapshot.uri];
  e.seq = ++nextSeq_;
  e.lastUse = ++useClock_;
  if (e.dropped) {
    e.dropped = false;
    stale.swap(e.analyzed);
  }
  if (!e.queued)
    order_.push_back(job.snapshot.uri);
  if (running_ == job.snapshot.uri)
    cancel_.store(true, std::memory_order_relaxed);
  dropped.swap(e.queued);
  e.queued = std::move(job);
  wake_.notify_all();
}

void Scheduler::remove(const std::string &uri) {
  std::vector<Waiter> waiters;
  std::optional<Entry> gone;
  {
    std::unique_lock<std::mutex> lock(mutex_);
    auto it = entries_.find(uri);
    if (it == entries_.end())
      return;
    waiters.swap(it->second.waiters);
    gone = std::move(it->second);
    entries_.erase(it);
    // Wait for a running analysis of it to stop (it is cancelled, so this is
    // short): once remove() returns, nothing more is published for `uri`.
    if (running_ == uri) {
      cancel_.store(true, std::memory_order_relaxed);
      idle_.wait(lock, [&] { return running_ != uri || stopping_; });
    }
  }
  for (Waiter &w : waiters)
    w(nullptr);
}

void Scheduler::whenReady(const std::string &uri, Waiter waiter) {
  ResultPtr ready;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(uri);
    if (it != entries_.end()) {
      Entry &e = it->second;
      e.lastUse = ++useClock_;
      if (e.dropped) { // analyze the same text again
        e.dropped = false;
        e.doneSeq = 0;
        e.queued.swap(e.analyzed);
        order_.push_back(uri);
        wake_.notify_all();
      }
      if (e.doneSeq != e.seq) {
        e.waiters.push_back(std::move(waiter));
        return;
      }
      ready = e.result; // null if the analysis failed

    }
  }
  waiter(ready);
}

void Scheduler::release() {
  std::lock_guard<std::mutex> lock(mutex_);
  held_ = false;
  wake_.notify_all();
}

void Scheduler::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return stopping_ || (running_.empty() && (held_ || order_.empty())); });
}

void Scheduler::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (stopping_ && !worker_.joinable())
      return;
    stopping_ = true;
    cancel_.store(true, std::memory_order_relaxed);
    wake_.notify_all();
    idle_.notify_all();
  }
  if (worker_.joinable())
    worker_.join();
}

void Scheduler::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || (!held_ && !order_.empty()); });
    if (stopping_)
      return;
    runOne(lock);
    idle_.notify_all(); // waitIdle() and remove() wait for this
  }
}

// Runs the oldest queued job; called and returns with `lock` held.
void Scheduler::runOne(std::unique_lock<std::mutex> &lock) {
  std::string uri = std::move(order_.front());
  order_.pop_front();
  auto it = entries_.find(uri);
  if (it == entries_.end() || !it->second.queued)
    return; // closed since
  Job job = std::move(*it->second.queued);
  it->second.queued.reset();
  uint64_t seq = it->second.seq;
  // The last analysis of the document: what the edits left alone is reused.
  ResultPtr base = it->second.result;
  running_ = uri;
  cancel_.store(false, std::memory_order_relaxed);
  lock.unlock();

  std::unique_ptr<Analysis> analysis;
  std::string failure;
  try {
    AnalysisOptions options;
    options.policy = *job.policy;
    options.cancelled = &cancel_;
    options.keepForReuse = true;
    analysis = engine_.analyze(job.snapshot.source, options, job.snapshot.oldTree.get(),
                               base ? base->analysis.get() : nullptr);
  } catch (const std::exception &e) {
    failure = e.what();
  }
  job.snapshot.oldTree.reset();

  ResultPtr result, previous;
  std::vector<ResultPtr> overCap;
  std::vector<Waiter> waiters;
  lock.lock();
  it = entries_.find(uri);
  bool current = it != entries_.end() && it->second.seq == seq;
  if (current && analysis) {
    auto r = std::make_shared<AnalysisResult>();
    r->uri = uri;
    r->version = job.snapshot.version;
    r->generation = job.snapshot.generation;
    r->seq = seq;
    r->analysis = std::move(analysis);
    result = r;
    previous = std::exchange(it->second.result, result);
    it->second.analyzed = std::move(job);
    it->second.lastUse = ++useClock_;
    overCap = dropOverCap(uri);
  }
  // A cancelled analysis has a newer job queued, which will answer the waiters.
  if (current && (result || !failure.empty())) {
    it->second.doneSeq = seq;
    waiters.swap(it->second.waiters);
  }
  lock.unlock();

  if (!failure.empty())
    log_("analysis of " + uri + " failed: " + failure);
  if (result)
    onResult_(result);
  for (Waiter &w : waiters)
    w(result);
  // Superseded and dropped analyses are freed on another thread: the next
  // edit's analysis need not wait for it.
  reaper_.bury(std::move(previous));
  reaper_.bury(std::move(base));
  reaper_.bury(std::shared_ptr<const Analysis>(std::move(analysis)));
  if (!result)
    reaper_.bury(std::make_shared<Job>(std::move(job)));
  for (ResultPtr &r : overCap) {
    if (onDrop_)
      onDrop_(*r);
    reaper_.bury(std::move(r));
  }

  lock.lock();
  running_.clear();
}

std::vector<ResultPtr> Scheduler::dropOverCap(const std::string &keep) {
  auto bytes = [](const Entry &e) { return e.analyzed->snapshot.source->text().size(); };
  size_t kept = 0;
  for (const auto &[uri, e] : entries_)
    if (e.result)
      kept += bytes(e);
  std::vector<ResultPtr> dropped;
  while (kept > retainedBytes_) {
    Entry *oldest = nullptr;
    // A queued job will replace its result anyway; until then it is the
    // base that job's analysis reuses.
    for (auto &[uri, e] : entries_)
      if (e.result && !e.queued && uri != keep && (!oldest || e.lastUse < oldest->lastUse))
        oldest = &e;
    if (!oldest)
      break;
    kept -= bytes(*oldest);
    dropped.push_back(std::move(oldest->result));
    oldest->result.reset();
    oldest->dropped = true;
  }
  return dropped;
}

} // namespace ivc::lsp
