//===- Reaper.cpp ---------------------------------------------------------===//
#include "Reaper.h"

namespace ivc::lsp {

Reaper::Reaper() : thread_([this] { run(); }) {}

Reaper::~Reaper() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void Reaper::bury(std::shared_ptr<const void> p) {
  if (!p)
    return;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    graves_.push_back(std::move(p));
  }
  wake_.notify_one();
}

void Reaper::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    wake_.wait(lock, [&] { return stopping_ || !graves_.empty(); });
    std::vector<std::shared_ptr<const void>> batch;
    batch.swap(graves_);
    bool last = stopping_;
    lock.unlock();
    batch.clear(); // the frees happen here, outside the lock
    lock.lock();
    if (last && graves_.empty())
      return;
  }
}

} // namespace ivc::lsp
