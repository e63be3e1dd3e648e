//===- StackTest.cpp - runWithAnalysisStack -------------------------------===//
#include "ivc/support/Stack.h"

#include <gtest/gtest.h>

#include <atomic>
#include <csignal>
#include <pthread.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace ivc;

namespace {

/// Returns `levels`, having used about `levels` KiB of stack.
unsigned deep(unsigned levels) {
  volatile char frame[1024];
  frame[levels % sizeof frame] = 1;
  if (levels == 0)
    return 0;
  unsigned below = deep(levels - 1);
  return below + frame[levels % sizeof frame]; // read after the call: no tail call
}

/// Runs `fn` on a thread with a 256 KiB stack.
void onSmallStack(void (*fn)(void *), void *arg) {
  struct Call {
    void (*fn)(void *);
    void *arg;
  } call{fn, arg};
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, 256 << 10), 0);
  pthread_t t;
  ASSERT_EQ(pthread_create(
                &t, &attr,
                [](void *p) -> void * {
                  auto *c = static_cast<Call *>(p);
                  c->fn(c->arg);
                  return nullptr;
                },
                &call),
            0);
  pthread_attr_destroy(&attr);
  pthread_join(t, nullptr);
}

TEST(AnalysisStack, HasRoomWhereTheCallerHasLittle) {
  unsigned got = 0;
  onSmallStack(
      [](void *p) {
        // 64 MiB of frames, from a thread with 256 KiB.
        runWithAnalysisStack([p] { *static_cast<unsigned *>(p) = deep(64 << 10); });
      },
      &got);
  EXPECT_EQ(got, 64u << 10);
}

TEST(AnalysisStack, NestedCallsRunInPlaceAndCallersRunAtOnce) {
  std::atomic<int> runs{0};
  std::vector<std::thread> callers;
  for (int i = 0; i < 8; ++i)
    callers.emplace_back([&] {
      for (int j = 0; j < 50; ++j)
        runWithAnalysisStack([&] {
          runWithAnalysisStack([&] { ++runs; });
          deep(1024);
        });
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(runs.load(), 8 * 50);
}

TEST(AnalysisStack, AForkedChildStartsItsOwn) {
  runWithAnalysisStack([] {}); // the parent has a parked thread now
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    unsigned got = 0;
    runWithAnalysisStack([&] { got = deep(16 << 10); });
    _exit(got == 16u << 10 ? 0 : 1);
  }
  // A child waiting on a helper it does not have would wait for ever.
  int status = 0;
  for (int i = 0; i < 3000 && waitpid(pid, &status, WNOHANG) == 0; ++i)
    usleep(10000);
  if (kill(pid, 0) == 0 && waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    FAIL() << "the child hung";
  }
  ASSERT_TRUE(WIFEXITED(status)) << "the child did not exit";
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

} // namespace
