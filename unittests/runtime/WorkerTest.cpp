//===- WorkerTest.cpp - Real ivc-worker processes, the pool, the watchdog --===//
#include "ivc/runtime/codec/Codec.h"
#include "ivc/runtime/host/Audit.h"
#include "ivc/runtime/host/Pool.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>

using namespace ivc::runtime;
using codec::Kind;
using codec::Value;

namespace {

WorkerOptions options() {
  WorkerOptions o;
  o.workerPath = IVC_TEST_WORKER_PATH;
  return o;
}

// A small preload list (the worker's own modules still import torch).
SandboxConfig light() {
  SandboxConfig c;
  c.preload = {"math"};
  c.startTimeoutMs = 60000;
  return c;
}

bool waitExit(int pidfd, int ms) {
  struct pollfd p = {pidfd, POLLIN, 0};
  return ::poll(&p, 1, ms) == 1;
}

TEST(SandboxConfig, RoundTripAndValidation) {
  SandboxConfig c;
  c.block.network = false;
  c.importAllowlist = {"torch", "numpy"};
  c.addressSpaceBytes = 123456789;
  c.torchThreads = 4;
  c.allowJit = false;
  c.channelSpinMicros = MaxChannelSpinMicros;
  Result<SandboxConfig> back = SandboxConfig::fromValue(c.toValue());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->toValue(), c.toValue());
  EXPECT_EQ(back->fingerprint(), c.fingerprint());
  SandboxConfig d = c;
  d.block.exec = false;
  EXPECT_NE(d.fingerprint(), c.fingerprint());
  EXPECT_EQ(d.preloadKey(), c.preloadKey());

  Value v = Value::dict();
  v.set("torch_threads", Value::str("two"));
  Result<SandboxConfig> r = SandboxConfig::fromValue(v);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'torch_threads' must be a non-negative int"),
            std::string::npos);
  v = Value::dict();
  v.set("preload", Value::list({Value::integer(1)}));
  EXPECT_FALSE(SandboxConfig::fromValue(v).ok());
  v = Value::dict();
  v.set("torch_threads", Value::integer(0));
  EXPECT_FALSE(SandboxConfig::fromValue(v).ok());
  v = Value::dict();
  Value limits = Value::dict();
  limits.set("open_files", Value::integer(3));
  v.set("rlimits", limits);
  EXPECT_FALSE(SandboxConfig::fromValue(v).ok());
  v = Value::dict();
  v.set("channel_spin_us", Value::integer(MaxChannelSpinMicros + 1));
  r = SandboxConfig::fromValue(v);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'channel_spin_us' must be at most"), std::string::npos);
  // An arena no worker could map: refused with the config, not at spawn.
  for (auto [download, upload, max] : {std::tuple(0, 16, 64), std::tuple(16, 0, 64),
                                       std::tuple(48, 17, 64)}) {
    v = Value::dict();
    Value arena = Value::dict();
    arena.set("download", Value::integer(download));
    arena.set("upload", Value::integer(upload));
    arena.set("max", Value::integer(max));
    v.set("arena", arena);
    r = SandboxConfig::fromValue(v);
    ASSERT_FALSE(r.ok()) << download << " " << upload << " " << max;
    EXPECT_NE(r.error().message.find("fit in its 'max'"), std::string::npos);
  }
}

TEST(Worker, SpawnLocksDownAndReportsFacts) {
  Result<std::unique_ptr<Worker>> w = spawnWorker(options(), light());
  ASSERT_TRUE(w.ok()) << w.error().message;
  const Value &facts = (*w)->facts();
  ASSERT_TRUE(facts.is(Kind::Dict));
  EXPECT_EQ(*facts.get("seccomp"), Value::boolean(true));
  EXPECT_EQ(*facts.get("no_new_privs"), Value::boolean(true));
  EXPECT_EQ(*facts.get("audit_hook"), Value::boolean(true));
  if (::geteuid() == 0) {
    EXPECT_EQ(*facts.get("netns"), Value::str("new"));
  }
  EXPECT_TRUE((*w)->idleAndAlive());
  EXPECT_STREQ((*w)->origin(), "spawn");
  // Its own process group, and not dumpable after lockdown.
  EXPECT_EQ(::getpgid((*w)->pid()), (*w)->pid());
  std::ifstream status("/proc/" + std::to_string((*w)->pid()) + "/status");
  std::string line, seccomp, nnp;
  while (std::getline(status, line)) {
    if (line.rfind("Seccomp:", 0) == 0)
      seccomp = line;
    if (line.rfind("NoNewPrivs:", 0) == 0)
      nnp = line;
  }
  EXPECT_EQ(seccomp, "Seccomp:\t2");
  EXPECT_EQ(nnp, "NoNewPrivs:\t1");
  (*w)->kill();
  EXPECT_TRUE(waitExit((*w)->pidfd(), 5000));
  EXPECT_FALSE((*w)->idleAndAlive());
}

TEST(Worker, StartFailureIsReported) {
  SandboxConfig c = light();
  c.preload = {"no_such_module_ivc"};
  Result<std::unique_ptr<Worker>> w = spawnWorker(options(), c);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("no_such_module_ivc"), std::string::npos) << w.error().message;
}

TEST(Worker, SilentWorkerTimesOutAndIsKilled) {
  // A "worker" that never answers: the host gives up at the start deadline
  // and kills it (and its process group) on the way out.
  char path[] = "/tmp/ivc-silent-XXXXXX";
  int fd = ::mkstemp(path);
  std::string script = "#!/bin/sh\nsleep 60 &\nexec sleep 60\n";
  ASSERT_EQ(::write(fd, script.data(), script.size()), (ssize_t)script.size());
  ::close(fd);
  ::chmod(path, 0755);
  WorkerOptions silent;
  silent.workerPath = path;
  SandboxConfig c = light();
  c.startTimeoutMs = 300;
  auto t0 = std::chrono::steady_clock::now();
  Result<std::unique_ptr<Worker>> w = spawnWorker(silent, c);
  auto waited = std::chrono::steady_clock::now() - t0;
  ::unlink(path);
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().kind, Error::Timeout) << w.error().message;
  // Not a timing assertion: only that the host did not wait for the sleep.
  EXPECT_LT(waited, std::chrono::seconds(30));
}

TEST(Zygote, ForksLockedDownWorkers) {
  Result<std::unique_ptr<Zygote>> z = Zygote::start(options(), light());
  ASSERT_TRUE(z.ok()) << z.error().message;
  Result<std::unique_ptr<Worker>> a = (*z)->fork(light());
  Result<std::unique_ptr<Worker>> b = (*z)->fork(light());
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_NE((*a)->pid(), (*b)->pid());
  EXPECT_STREQ((*a)->origin(), "zygote");
  EXPECT_EQ(::getpgid((*a)->pid()), (*a)->pid());
  EXPECT_EQ(*(*a)->facts().get("seccomp"), Value::boolean(true));
  int pidfd = ::dup((*a)->pidfd());
  a->reset(); // ~Worker kills it
  EXPECT_TRUE(waitExit(pidfd, 5000));
  ::close(pidfd);
  EXPECT_TRUE((*b)->idleAndAlive());
  EXPECT_TRUE((*z)->alive());
}

TEST(Pool, ReusesOnlyCleanWorkersAndDetectsDeadOnes) {
  WorkerPool::Options o;
  o.worker = options();
  o.maxIdlePerKey = 2;
  WorkerPool pool(o);
  SandboxConfig c = light();
  auto w1 = std::move(*pool.acquire(c, "alice"));
  pid_t pid1 = w1->pid();
  pool.release(std::move(w1), /*clean=*/true);
  auto w2 = std::move(*pool.acquire(c, "alice"));
  EXPECT_EQ(w2->pid(), pid1) << "a clean worker was not reused";
  // Another tenant never gets it.
  auto other = std::move(*pool.acquire(c, "bob"));
  EXPECT_NE(other->pid(), pid1);
  pool.release(std::move(other), true);
  // Not clean: retired.
  pool.release(std::move(w2), /*clean=*/false);
  auto w3 = std::move(*pool.acquire(c, "alice"));
  EXPECT_NE(w3->pid(), pid1);
  // Dead while idle: detected before use.
  pid_t pid3 = w3->pid();
  int pidfd = ::dup(w3->pidfd());
  pool.release(std::move(w3), true);
  ::kill(pid3, SIGKILL);
  ASSERT_TRUE(waitExit(pidfd, 5000));
  ::close(pidfd);
  auto w4 = std::move(*pool.acquire(c, "alice"));
  EXPECT_NE(w4->pid(), pid3);
  WorkerPool::Stats s = pool.stats();
  EXPECT_EQ(s.reused, 1u);
  EXPECT_EQ(s.deadIdle, 1u);
  EXPECT_EQ(s.retired, 1u);
  EXPECT_EQ(s.zygoteStarts, 1u);
  EXPECT_EQ(s.forked, 4u);
}

TEST(Pool, IdleWorkersAreBoundedAcrossTenants) {
  WorkerPool::Options o;
  o.worker = options();
  o.maxIdlePerKey = 2;
  o.maxIdleTotal = 2;
  WorkerPool pool(o);
  SandboxConfig c = light();
  std::vector<pid_t> pids;
  for (const char *tenant : {"a", "b", "c"}) {
    auto w = std::move(*pool.acquire(c, tenant));
    pids.push_back(w->pid());
    pool.release(std::move(w), true);
  }
  EXPECT_EQ(pool.idle(), 2u);
  EXPECT_EQ(pool.stats().evicted, 1u);
  // The least recently used (tenant a) went; b is still warm.
  auto b = std::move(*pool.acquire(c, "b"));
  EXPECT_EQ(b->pid(), pids[1]);
  auto a = std::move(*pool.acquire(c, "a"));
  EXPECT_NE(a->pid(), pids[0]);
}

TEST(Watchdog, KillsTheProcessGroupAtTheDeadline) {
  Result<pid_t> pid = spawnProcess({"/bin/sh", "-c", "sleep 60 & sleep 60"}, -1, -1);
  ASSERT_TRUE(pid.ok());
  Result<UniqueFd> pidfd = openPidfd(*pid);
  ASSERT_TRUE(pidfd.ok());
  Watchdog dog;
  uint64_t ticket = dog.arm(pidfd->get(), *pid, Deadline::afterMs(100));
  ASSERT_TRUE(waitExit(pidfd->get(), 10000)) << "the watchdog did not kill in time";
  EXPECT_FALSE(dog.disarm(ticket));
  EXPECT_EQ(dog.fired(), 1u);
  int status = 0;
  ::waitpid(*pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  // The background sleep was in the same group: gone too.
  for (int i = 0; i < 100 && ::kill(-*pid, 0) == 0; ++i)
    ::usleep(20000);
  EXPECT_NE(::kill(-*pid, 0), 0);
}

TEST(Watchdog, DisarmedInTime) {
  Result<pid_t> pid = spawnProcess({"/bin/sleep", "60"}, -1, -1);
  ASSERT_TRUE(pid.ok());
  Result<UniqueFd> pidfd = openPidfd(*pid);
  Watchdog dog;
  uint64_t ticket = dog.arm(pidfd->get(), *pid, Deadline::afterMs(60000));
  EXPECT_TRUE(dog.disarm(ticket));
  EXPECT_FALSE(waitExit(pidfd->get(), 100));
  ::kill(*pid, SIGKILL);
  ::waitpid(*pid, nullptr, 0);
}

// The host arms the watchdog for every wait: a deadline earlier than the one
// its thread sleeps until must wake it, and disarmed ones must not fire.
TEST(Watchdog, AnEarlierDeadlineWakesItsThread) {
  Result<pid_t> pid = spawnProcess({"/bin/sleep", "60"}, -1, -1);
  ASSERT_TRUE(pid.ok());
  Result<UniqueFd> pidfd = openPidfd(*pid);
  ASSERT_TRUE(pidfd.ok());
  Watchdog dog;
  uint64_t late = dog.arm(pidfd->get(), *pid, Deadline::afterMs(600000));
  EXPECT_TRUE(dog.disarm(dog.arm(pidfd->get(), *pid, Deadline::afterMs(50))));
  ::usleep(200000);
  EXPECT_EQ(dog.fired(), 0u);
  uint64_t soon = dog.arm(pidfd->get(), *pid, Deadline::afterMs(100));
  ASSERT_TRUE(waitExit(pidfd->get(), 10000)) << "the earlier deadline did not wake the watchdog";
  EXPECT_FALSE(dog.disarm(soon));
  EXPECT_TRUE(dog.disarm(late));
  ::waitpid(*pid, nullptr, 0);
}

TEST(Audit, PassesAndDetectsALeakyWorker) {
  AuditReport r = runAudit(options(), 60000, /*allowJit=*/false);
  EXPECT_TRUE(r.passed) << r.error;
  EXPECT_GE(r.total, 19u);
  EXPECT_EQ(r.refused, r.total);

  char path[] = "/tmp/ivc-leaky-XXXXXX";
  int fd = ::mkstemp(path);
  std::string script = "#!/bin/sh\necho 'FAILED   socket  x -> succeeds'\n"
                       "echo 'ivc audit: 0 of 1 canaries refused'\nexit 0\n";
  ASSERT_EQ(::write(fd, script.data(), script.size()), (ssize_t)script.size());
  ::close(fd);
  ::chmod(path, 0755);
  WorkerOptions leaky;
  leaky.workerPath = path;
  r = runAudit(leaky, 10000);
  EXPECT_FALSE(r.passed); // even though it exited 0
  ::unlink(path);

  WorkerOptions missing;
  missing.workerPath = "/nonexistent/ivc-worker";
  r = runAudit(missing, 10000);
  EXPECT_FALSE(r.passed);
  EXPECT_FALSE(r.error.empty());
}

} // namespace
