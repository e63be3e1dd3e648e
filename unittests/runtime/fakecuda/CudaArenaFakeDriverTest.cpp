//===- CudaArenaFakeDriverTest.cpp - The arena against a fake driver ------===//
//
// The cuda-ipc arena's driver calls, run on any machine: this binary links
// the fake libcuda.so.1 (FakeCudaDriver.cpp), so the transport's dlopen finds
// it. Checked here: the host exports what a worker in another process needs
// and nothing more, bytes written on one side are read on the other, each
// side orders on the device only for work still queued, a failure at any
// driver call leaves nothing behind, and a closed worker arena is refused.
// What only a GPU shows (the real driver's behaviour, torch on cuda) is in
// unittests/runtime/python/test_cuda.py.
//
//===----------------------------------------------------------------------===//
#include "FakeCudaHooks.h"

#include "ivc/runtime/transport/CudaArena.h"
#include "ivc/runtime/transport/CudaDriver.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <initializer_list>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

using namespace ivc::runtime;

namespace {

constexpr uint64_t DownloadBytes = 1 << 20, UploadBytes = 1 << 16;

bool operator==(const IvcFakeCudaCounts &a, const IvcFakeCudaCounts &b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string describe(const IvcFakeCudaCounts &c) {
  return "allocations=" + std::to_string(c.allocations) + " mappings=" +
         std::to_string(c.mappings) + " events=" + std::to_string(c.events) +
         " retained=" + std::to_string(c.retained) + " pushed=" + std::to_string(c.pushed) +
         " current=" + std::to_string(c.currentDevice);
}

/// Empty when this process holds what it held at `start`, else what changed.
std::string leftBehind(const IvcFakeCudaCounts &start) {
  IvcFakeCudaCounts now = ivcFakeCudaCounts();
  return now == start ? ""
                      : "left behind: " + describe(now) + " (started with " + describe(start) + ")";
}

/// Runs `body` in a child process (IPC handles cannot be opened by their
/// exporter) and returns what it reported: empty when all was well.
std::string inChild(const std::function<std::string()> &body) {
  int pipeFds[2];
  if (::pipe(pipeFds) != 0)
    return "pipe failed";
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipeFds[0]);
    std::string report = body();
    (void)!::write(pipeFds[1], report.data(), report.size());
    ::_exit(0);
  }
  ::close(pipeFds[1]);
  std::string report;
  char buf[512];
  for (ssize_t n; (n = ::read(pipeFds[0], buf, sizeof buf)) > 0;)
    report.append(buf, static_cast<size_t>(n));
  ::close(pipeFds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    report += " (the child did not exit cleanly)";
  return report;
}

uint8_t *hostBytes(uint64_t deviceAddress) { return reinterpret_cast<uint8_t *>(deviceAddress); }

class CudaArenaFakeDriver : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_TRUE(cuda::driverStatus().ok()) << cuda::driverStatus().error().message;
    ivcFakeCudaFail(nullptr, 0);
    before_ = ivcFakeCudaCounts();
  }
  /// Whatever a test made is gone again, and no context is left current.
  void TearDown() override {
    IvcFakeCudaCounts now = ivcFakeCudaCounts();
    EXPECT_TRUE(now == before_) << "before: " << describe(before_) << "\nafter:  " << describe(now);
  }
  IvcFakeCudaCounts before_{};
};

TEST_F(CudaArenaFakeDriver, TheDriverIsTheFake) {
  Result<int> count = cuda::deviceCount();
  ASSERT_TRUE(count.ok()) << count.error().message;
  EXPECT_EQ(*count, 2);
}

TEST_F(CudaArenaFakeDriver, HostExportsOnceAndReleasesEverything) {
  {
    Result<std::shared_ptr<CudaHostArena>> a = CudaHostArena::create(1, 1000, 300);
    ASSERT_TRUE(a.ok()) << a.error().message;
    IvcFakeCudaCounts live = ivcFakeCudaCounts();
    EXPECT_EQ(live.allocations, before_.allocations + 1);
    EXPECT_EQ(live.events, before_.events + 2);
    EXPECT_EQ(live.retained, before_.retained + 1);
    EXPECT_EQ(live.pushed, 0) << "a context was left current";
    const CudaAnnouncement &ann = (*a)->announcement();
    EXPECT_EQ(ann.pciBusId, "0000:0B:00.0"); // device 1's
    EXPECT_EQ(ann.downloadBytes, 1024u);
    EXPECT_EQ(ann.uploadBytes, 512u);
    EXPECT_NE(ann.memory, ann.toWorker);
    EXPECT_NE(ann.toWorker, ann.toHost);
    EXPECT_TRUE(CudaAnnouncement::fromValue(ann.toValue()).ok());
    EXPECT_EQ(*(*a)->regionAddress(CudaUploadSpace), *(*a)->regionAddress(CudaDownloadSpace) + 1024);
    EXPECT_EQ(*(*a)->resolve(CudaUploadSpace, 256, 256), *(*a)->regionAddress(CudaUploadSpace) + 256);
    EXPECT_FALSE((*a)->resolve(CudaUploadSpace, 256, 257).has_value());
  }
}

TEST_F(CudaArenaFakeDriver, BadDeviceOrdinalIsTheDriversError) {
  Result<std::shared_ptr<CudaHostArena>> a = CudaHostArena::create(7, DownloadBytes, UploadBytes);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "cuDeviceGet: invalid device ordinal (CUresult 101)");
}

TEST_F(CudaArenaFakeDriver, CallsDoNotDisturbTheCallersContext) {
  // torch may have another device's context current on the calling thread.
  CUcontext ignored;
  ASSERT_EQ(cuCtxPushCurrent(static_cast<CUcontext>(ivcFakeCudaPrimaryContext(0))), CUDA_SUCCESS);
  {
    Result<std::shared_ptr<CudaHostArena>> a = CudaHostArena::create(1, DownloadBytes, UploadBytes);
    ASSERT_TRUE(a.ok()) << a.error().message;
    EXPECT_TRUE((*a)->recordForWorker(0).ok());
    EXPECT_TRUE((*a)->waitForWorker(0).ok());
    EXPECT_EQ(ivcFakeCudaCounts().currentDevice, 0);
    EXPECT_EQ(ivcFakeCudaCounts().pushed, 1);
  }
  ASSERT_EQ(cuCtxPopCurrent(&ignored), CUDA_SUCCESS);
}

// The whole exchange of one message each way, as host and worker do it, with
// nothing queued on either device stream: the worker waits on the CPU, and no
// side makes its stream wait (each would cost a switch of GPU context).
TEST_F(CudaArenaFakeDriver, WorkerInAnotherProcessSharesTheBytesAndTheEvents) {
  Result<std::shared_ptr<CudaHostArena>> made = CudaHostArena::create(1, DownloadBytes, UploadBytes);
  ASSERT_TRUE(made.ok()) << made.error().message;
  CudaHostArena &host = **made;
  const CudaAnnouncement ann = host.announcement();
  uint8_t *download = hostBytes(*host.regionAddress(CudaDownloadSpace));
  uint8_t *upload = hostBytes(*host.regionAddress(CudaUploadSpace));
  for (size_t i = 0; i < 4096; ++i)
    download[i] = static_cast<uint8_t>(i * 7);
  ASSERT_TRUE(host.recordForWorker(0).ok());
  EXPECT_EQ(ivcFakeCudaRecords(ann.toWorker.data()), 1);

  std::string report = inChild([&]() -> std::string {
    IvcFakeCudaCounts start = ivcFakeCudaCounts();
    Result<CudaAnnouncement> wire = CudaAnnouncement::fromValue(ann.toValue());
    if (!wire)
      return wire.error().message;
    Result<std::shared_ptr<CudaWorkerArena>> opened = CudaWorkerArena::open(*wire);
    if (!opened)
      return "open: " + opened.error().message;
    CudaWorkerArena &w = **opened;
    if (w.device() != 1)
      return "opened device " + std::to_string(w.device()) + ", not the host's (1)";
    if (Status s = w.waitForHost(); !s)
      return "waitForHost: " + s.error().message;
    const uint8_t *seen = hostBytes(*w.regionAddress(CudaDownloadSpace));
    for (size_t i = 0; i < 4096; ++i)
      if (seen[i] != static_cast<uint8_t>(i * 7))
        return "download byte " + std::to_string(i) + " differs";
    std::memset(hostBytes(*w.regionAddress(CudaUploadSpace)), 0x5a, UploadBytes);
    if (Status s = w.recordForHost(0); !s)
      return "recordForHost: " + s.error().message;
    if (Status s = w.close(); !s)
      return "close: " + s.error().message;
    if (Status s = w.close(); !s)
      return "second close: " + s.error().message;
    if (w.waitForHost().ok())
      return "a closed arena was usable";
    return leftBehind(start);
  });
  EXPECT_EQ(report, "");
  EXPECT_EQ(ivcFakeCudaSyncs(ann.toWorker.data()), 1);
  EXPECT_EQ(ivcFakeCudaWaits(ann.toWorker.data()), 0);
  EXPECT_EQ(ivcFakeCudaRecords(ann.toHost.data()), 0) << "the worker's stream was idle";
  ASSERT_TRUE(host.waitForWorker(0).ok());
  EXPECT_EQ(ivcFakeCudaWaits(ann.toHost.data()), 0);
  for (size_t i = 0; i < UploadBytes; ++i)
    ASSERT_EQ(upload[i], 0x5a) << "upload byte " << i;
}

// The one-call copies of the hook path: the host's into fresh download
// space, the worker's to an offset of the upload region it checks itself.
TEST_F(CudaArenaFakeDriver, CopiesLandInTheirRegionAndNowhereElse) {
  Result<std::shared_ptr<CudaHostArena>> made = CudaHostArena::create(0, DownloadBytes, UploadBytes);
  ASSERT_TRUE(made.ok()) << made.error().message;
  CudaHostArena &host = **made;
  std::vector<uint8_t> source(3000);
  for (size_t i = 0; i < source.size(); ++i)
    source[i] = static_cast<uint8_t>(i * 13 + 1);
  const uint64_t from = reinterpret_cast<uint64_t>(source.data());
  Result<Placement> first = host.copyIntoDownload(from, 100, 0);
  Result<Placement> second = host.copyIntoDownload(from, source.size(), 0);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(second->space, CudaDownloadSpace);
  EXPECT_GE(second->offset, first->offset + 100) << "placements overlap";
  uint8_t *at = hostBytes(*host.resolve(second->space, second->offset, source.size()));
  EXPECT_EQ(std::memcmp(at, source.data(), source.size()), 0);

  Result<Placement> tooBig = host.copyIntoDownload(from, DownloadBytes + 1, 0);
  ASSERT_FALSE(tooBig.ok());
  EXPECT_NE(tooBig.error().message.find("download"), std::string::npos) << tooBig.error().message;
  ivcFakeCudaFail("cuMemcpyDtoDAsync", 0);
  Result<Placement> failed = host.copyIntoDownload(from, 8, 0);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.error().message.find("cuMemcpyDtoDAsync"), std::string::npos)
      << failed.error().message;

  const CudaAnnouncement ann = host.announcement();
  std::string report = inChild([&]() -> std::string {
    Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open(ann);
    if (!w)
      return "open: " + w.error().message;
    if (Status s = (*w)->copyIntoUpload(64, from, source.size(), 0); !s)
      return "copyIntoUpload: " + s.error().message;
    if ((*w)->copyIntoUpload(UploadBytes - 8, from, 9, 0).ok())
      return "a copy past the end of the upload region was queued";
    if ((*w)->copyIntoUpload(UINT64_MAX - 4, from, 8, 0).ok())
      return "a copy at a wrapping offset was queued";
    if (Status s = (*w)->close(); !s)
      return "close: " + s.error().message;
    if ((*w)->copyIntoUpload(0, from, 8, 0).ok())
      return "a closed arena copied";
    return "";
  });
  EXPECT_EQ(report, "");
  uint8_t *upload = hostBytes(*host.regionAddress(CudaUploadSpace));
  EXPECT_EQ(std::memcmp(upload + 64, source.data(), source.size()), 0);
  EXPECT_EQ(upload[UploadBytes - 1], 0) << "the refused copy wrote";
}

// Work still queued on a side's stream when it sends: the worker records its
// event and the host's stream waits for it; a worker with nothing queued
// records nothing, and the host then skips a wait on the old, finished event.
TEST_F(CudaArenaFakeDriver, QueuedWorkIsOrderedOnTheDevice) {
  Result<std::shared_ptr<CudaHostArena>> made = CudaHostArena::create(0, DownloadBytes, UploadBytes);
  ASSERT_TRUE(made.ok()) << made.error().message;
  CudaHostArena &host = **made;
  const CudaAnnouncement ann = host.announcement();
  ivcFakeCudaBusy(1); // the host's copy is still queued when the message goes
  ASSERT_TRUE(host.recordForWorker(0).ok());
  std::string report = inChild([&]() -> std::string {
    Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open(ann);
    if (!w)
      return "open: " + w.error().message;
    if (Status s = (*w)->waitForHost(); !s)
      return "waitForHost: " + s.error().message;
    // Still busy (inherited): the worker's stream has its own work queued.
    if (Status s = (*w)->recordForHost(0); !s)
      return "recordForHost: " + s.error().message;
    return "";
  });
  ivcFakeCudaBusy(0);
  EXPECT_EQ(report, "");
  EXPECT_EQ(ivcFakeCudaSyncs(ann.toWorker.data()), 1);
  EXPECT_EQ(ivcFakeCudaRecords(ann.toHost.data()), 1);
  ASSERT_TRUE(host.waitForWorker(0).ok());
  EXPECT_EQ(ivcFakeCudaWaits(ann.toHost.data()), 1) << "the worker's event was pending";

  // Next message: the worker's stream is idle, so it records nothing; the
  // host's wait on the (now finished) event is skipped.
  ASSERT_TRUE(host.recordForWorker(0).ok());
  report = inChild([&]() -> std::string {
    Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open(ann);
    if (!w)
      return "open: " + w.error().message;
    ivcFakeCudaBusy(1);
    (void)(*w)->recordForHost(0); // its work from before...
    ivcFakeCudaBusy(0);          // ...finished
    if (Status s = (*w)->recordForHost(0); !s)
      return "recordForHost: " + s.error().message;
    return "";
  });
  EXPECT_EQ(report, "");
  EXPECT_EQ(ivcFakeCudaRecords(ann.toHost.data()), 2);
  ASSERT_TRUE(host.waitForWorker(0).ok());
  EXPECT_EQ(ivcFakeCudaWaits(ann.toHost.data()), 1);
}

TEST_F(CudaArenaFakeDriver, OrderingReportsTheDriversError) {
  Result<std::shared_ptr<CudaHostArena>> made = CudaHostArena::create(0, DownloadBytes, UploadBytes);
  ASSERT_TRUE(made.ok()) << made.error().message;
  ivcFakeCudaFail("cuEventQuery", 0);
  Status s = (*made)->waitForWorker(0);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().message, "cuEventQuery: out of memory (CUresult 2)");
  std::string report = inChild([&]() -> std::string {
    Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open((*made)->announcement());
    if (!w)
      return "open: " + w.error().message;
    ivcFakeCudaFail("cuStreamQuery", 0);
    Status r = (*w)->recordForHost(0);
    if (r.ok())
      return "a failing cuStreamQuery was ignored";
    ivcFakeCudaFail("cuEventSynchronize", 0);
    Status h = (*w)->waitForHost();
    if (h.ok())
      return "a failing cuEventSynchronize was ignored";
    return r.error().message + " | " + h.error().message;
  });
  EXPECT_EQ(report, "cuStreamQuery: out of memory (CUresult 2) | "
                    "cuEventSynchronize: out of memory (CUresult 2)");
}

TEST_F(CudaArenaFakeDriver, TheExporterCannotOpenItsOwnArena) {
  Result<std::shared_ptr<CudaHostArena>> host = CudaHostArena::create(0, DownloadBytes, UploadBytes);
  ASSERT_TRUE(host.ok()) << host.error().message;
  Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open((*host)->announcement());
  ASSERT_FALSE(w.ok());
  EXPECT_EQ(w.error().message, "cuIpcOpenMemHandle: invalid device context (CUresult 201)");
}

struct FailingCall {
  const char *entry;
  int skip; // successful calls before the failing one
};

// Every driver call of CudaHostArena::create, failing in turn.
TEST_F(CudaArenaFakeDriver, AFailingHostCallLeavesNothingBehind) {
  for (auto [entry, skip] : std::initializer_list<FailingCall>{
           {"cuDeviceGet", 0}, {"cuDeviceGetPCIBusId", 0}, {"cuDevicePrimaryCtxRetain", 0},
           {"cuCtxPushCurrent", 0}, {"cuMemAlloc", 0}, {"cuEventCreate", 0}, {"cuEventCreate", 1},
           {"cuIpcGetMemHandle", 0}, {"cuIpcGetEventHandle", 0}, {"cuIpcGetEventHandle", 1}}) {
    SCOPED_TRACE(std::string(entry) + " after " + std::to_string(skip));
    ivcFakeCudaFail(entry, skip);
    Result<std::shared_ptr<CudaHostArena>> a = CudaHostArena::create(1, DownloadBytes, UploadBytes);
    ASSERT_FALSE(a.ok());
    std::string expected = std::string(entry) + ": out of memory (CUresult 2)";
    if (std::string(entry) == "cuCtxPushCurrent")
      expected = "cannot make the device's primary context current";
    EXPECT_EQ(a.error().message, expected);
    IvcFakeCudaCounts now = ivcFakeCudaCounts();
    EXPECT_TRUE(now == before_) << describe(now);
  }
}

// Every driver call of CudaWorkerArena::open, failing in turn.
TEST_F(CudaArenaFakeDriver, AFailingWorkerCallLeavesNothingBehind) {
  Result<std::shared_ptr<CudaHostArena>> host = CudaHostArena::create(1, DownloadBytes, UploadBytes);
  ASSERT_TRUE(host.ok()) << host.error().message;
  const CudaAnnouncement ann = (*host)->announcement();
  for (auto [entry, skip] : std::initializer_list<FailingCall>{
           {"cuDeviceGetByPCIBusId", 0}, {"cuDevicePrimaryCtxRetain", 0}, {"cuCtxPushCurrent", 0},
           {"cuIpcOpenMemHandle", 0}, {"cuIpcOpenEventHandle", 0}, {"cuIpcOpenEventHandle", 1}}) {
    SCOPED_TRACE(std::string(entry) + " after " + std::to_string(skip));
    std::string report = inChild([&]() -> std::string {
      IvcFakeCudaCounts start = ivcFakeCudaCounts();
      ivcFakeCudaFail(entry, skip);
      {
        Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open(ann);
        if (w)
          return "opened despite the failure";
        if (w.error().message.empty())
          return "no reason given";
      }
      return leftBehind(start);
    });
    EXPECT_EQ(report, "");
  }
}

TEST_F(CudaArenaFakeDriver, AnUnknownBusIdIsRefused) {
  Result<std::shared_ptr<CudaHostArena>> host = CudaHostArena::create(0, DownloadBytes, UploadBytes);
  ASSERT_TRUE(host.ok()) << host.error().message;
  CudaAnnouncement ann = (*host)->announcement();
  ann.pciBusId = "0000:0C:00.0";
  std::string report = inChild([&]() -> std::string {
    Result<std::shared_ptr<CudaWorkerArena>> w = CudaWorkerArena::open(ann);
    return w ? "opened a device that is not there" : w.error().message;
  });
  EXPECT_EQ(report, "cuDeviceGetByPCIBusId: invalid device ordinal (CUresult 101)");
}

} // namespace
