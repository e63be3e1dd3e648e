//===- Stack.cpp ----------------------------------------------------------===//
//
// Threads with the analysis's stack are kept once started, parked until the
// next call: starting one costs more than most analyses (its stack is mapped
// anew, and a sanitizer clears the shadow of all of it when it exits).
//
//===----------------------------------------------------------------------===//
#include "ivc/support/Stack.h"

#include <condition_variable>
#include <mutex>
#include <pthread.h>
#include <vector>

namespace ivc {

namespace {

thread_local bool onAnalysisStack = false;

/// One parked thread and the call it runs.
struct Helper {
  std::mutex mu;
  std::condition_variable cv;
  llvm::function_ref<void()> *job = nullptr;
  bool done = false;
};

std::mutex idleMu;
std::vector<Helper *> idle; // never freed: a helper parks for good

void *helperMain(void *arg) {
  onAnalysisStack = true;
  auto *h = static_cast<Helper *>(arg);
  std::unique_lock<std::mutex> lock(h->mu);
  for (;;) {
    h->cv.wait(lock, [h] { return h->job != nullptr; });
    (*h->job)();
    h->job = nullptr;
    h->done = true;
    h->cv.notify_all();
  }
}

/// A parked helper, or a new one; null when no thread can be started.
Helper *takeHelper() {
  {
    std::lock_guard<std::mutex> lock(idleMu);
    if (!idle.empty()) {
      Helper *h = idle.back();
      idle.pop_back();
      return h;
    }
  }
  auto *h = new Helper();
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, AnalysisStackBytes) == 0 &&
              pthread_create(&thread, &attr, helperMain, h) == 0;
    pthread_attr_destroy(&attr);
  }
  if (!started) {
    delete h;
    return nullptr;
  }
  pthread_detach(thread);
  return h;
}

// A forked child has none of the parent's helper threads; the lock keeps
// the list whole across the fork.
void lockBeforeFork() { idleMu.lock(); }
void unlockInParent() { idleMu.unlock(); }
void forgetHelpersInChild() {
  idle.clear();
  idleMu.unlock();
}

} // namespace

void runWithAnalysisStack(llvm::function_ref<void()> fn) {
  if (onAnalysisStack) {
    fn();
    return;
  }
  static const bool registered =
      pthread_atfork(lockBeforeFork, unlockInParent, forgetHelpersInChild) == 0;
  (void)registered;
  Helper *h = takeHelper();
  if (!h) {
    fn(); // without the room, only code nested far less deeply fits
    return;
  }
  {
    std::unique_lock<std::mutex> lock(h->mu);
    h->job = &fn;
    h->done = false;
    h->cv.notify_all();
    h->cv.wait(lock, [h] { return h->done; });
  }
  std::lock_guard<std::mutex> lock(idleMu);
  idle.push_back(h);
}

} // namespace ivc
