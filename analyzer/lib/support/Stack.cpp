//===- Stack.cpp ----------------------------------------------------------===//
#include "ivc/support/Stack.h"

#include <pthread.h>

namespace ivc {

namespace {

thread_local bool onAnalysisStack = false;

void *start(void *arg) {
  onAnalysisStack = true;
  (*static_cast<llvm::function_ref<void()> *>(arg))();
  return nullptr;
}

} // namespace

void runWithAnalysisStack(llvm::function_ref<void()> fn) {
  if (onAnalysisStack) {
    fn();
    return;
  }
  pthread_attr_t attr;
  pthread_t thread;
  bool started = pthread_attr_init(&attr) == 0;
  if (started) {
    started = pthread_attr_setstacksize(&attr, AnalysisStackBytes) == 0 &&
              pthread_create(&thread, &attr, start, &fn) == 0;
    pthread_attr_destroy(&attr);
  }
  if (started)
    pthread_join(thread, nullptr);
  else
    fn(); // without the room, only code nested far less deeply fits
}

} // namespace ivc
