//===- Pool.cpp -----------------------------------------------------------===//
#include "ivc/runtime/host/Pool.h"

namespace ivc::runtime {

WorkerPool::WorkerPool(Options options) : options_(std::move(options)) {
  Result<std::unique_ptr<StderrRelay>> relay =
      StderrRelay::start(options_.worker.stderrFd, options_.stderrLimits);
  if (relay) {
    stderrRelay_ = std::move(*relay);
    options_.worker.stderrFd = stderrRelay_->writeFd();
  }
}

WorkerPool::~WorkerPool() { clear(); }

void WorkerPool::clear() {
  std::map<std::string, std::deque<std::unique_ptr<Worker>>> idle;
  std::map<std::string, std::unique_ptr<Zygote>> zygotes;
  {
    std::lock_guard<std::mutex> lock(mu_);
    idle.swap(idle_);
    zygotes.swap(zygotes_);
  }
  // Destructors kill and reap outside the lock.
}

std::unique_ptr<Worker> WorkerPool::evictOverLimit() {
  size_t total = 0;
  for (const auto &[key, q] : idle_)
    total += q.size();
  if (total <= options_.maxIdleTotal)
    return nullptr;
  std::deque<std::unique_ptr<Worker>> *oldest = nullptr;
  for (auto &[key, q] : idle_)
    if (!q.empty() && (!oldest || q.front()->idleSince < oldest->front()->idleSince))
      oldest = &q;
  std::unique_ptr<Worker> w = std::move(oldest->front());
  oldest->pop_front();
  ++stats_.evicted;
  return w;
}

WorkerPool::Stats WorkerPool::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

size_t WorkerPool::idle() const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto &[key, q] : idle_)
    n += q.size();
  return n;
}

Status WorkerPool::startZygote(const SandboxConfig &config) {
  std::string key = config.preloadKey();
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = zygotes_.find(key);
    if (it != zygotes_.end() && it->second->alive())
      return Status::success();
  }
  Result<std::unique_ptr<Zygote>> z = Zygote::start(options_.worker, config);
  std::lock_guard<std::mutex> lock(mu_);
  if (!z) {
    ++stats_.zygoteFailures;
    return z.error();
  }
  ++stats_.zygoteStarts;
  zygotes_[key] = std::move(*z);
  return Status::success();
}

Result<std::unique_ptr<Worker>> WorkerPool::make(const SandboxConfig &config) {
  if (options_.useZygote) {
    Status started = startZygote(config);
    if (started) {
      // Fork under the lock: one request at a time on the zygote's channel.
      std::unique_lock<std::mutex> lock(mu_);
      auto it = zygotes_.find(config.preloadKey());
      if (it != zygotes_.end()) {
        Result<std::unique_ptr<Worker>> w = it->second->fork(config);
        if (w) {
          ++stats_.forked;
          return w;
        }
        // A broken zygote is replaced next time; this worker is spawned.
        ++stats_.zygoteFailures;
        std::unique_ptr<Zygote> dead = std::move(it->second);
        zygotes_.erase(it);
        lock.unlock();
        dead.reset();
      }
    }
  }
  Result<std::unique_ptr<Worker>> w = spawnWorker(options_.worker, config);
  if (w) {
    std::lock_guard<std::mutex> lock(mu_);
    ++stats_.spawned;
  }
  return w;
}

Result<std::unique_ptr<Worker>> WorkerPool::acquire(const SandboxConfig &config,
                                                    const std::string &tenant) {
  std::string key = config.fingerprint() + "/" + tenant;
  std::vector<std::unique_ptr<Worker>> dead;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto &q = idle_[key];
    while (!q.empty()) {
      std::unique_ptr<Worker> w = std::move(q.front());
      q.pop_front();
      w->resume();
      if (w->idleAndAlive()) {
        ++stats_.reused;
        return w;
      }
      ++stats_.deadIdle;
      dead.push_back(std::move(w));
    }
  }
  dead.clear();
  Result<std::unique_ptr<Worker>> w = make(config);
  if (w)
    (*w)->poolKey = key;
  return w;
}

void WorkerPool::release(std::unique_ptr<Worker> worker, bool clean) {
  if (!worker)
    return;
  ++worker->jobs;
  std::unique_ptr<Worker> retire;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto &q = idle_[worker->poolKey];
    if (clean && worker->jobs < worker->config().maxJobsPerWorker &&
        q.size() < options_.maxIdlePerKey && worker->idleAndAlive()) {
      worker->idleSince = std::chrono::steady_clock::now();
      worker->pause();
      q.push_back(std::move(worker));
      retire = evictOverLimit();
      return;
    }
    ++stats_.retired;
    retire = std::move(worker);
  }
  // ~Worker kills the process group and reaps outside the lock.
}

} // namespace ivc::runtime
