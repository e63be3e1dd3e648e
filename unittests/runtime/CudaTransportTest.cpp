//===- CudaTransportTest.cpp - The cuda-ipc transport, without a GPU -------===//
//
// What can be checked on any machine: the driver loader's errors, the device
// arena's layout and bump allocation, hostile descriptors, and the strict
// reading of the announcement a worker gets. The arena's driver calls are
// exercised against a fake driver in fakecuda/, and with torch on a real
// device by unittests/runtime/python/test_cuda.py where a GPU exists.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/host/SandboxConfig.h"
#include "ivc/runtime/transport/CudaArena.h"
#include "ivc/runtime/transport/CudaDriver.h"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <functional>

using namespace ivc::runtime;
using codec::Value;

namespace {

TEST(CudaDriver, MissingLibraryIsAClearError) {
  Status s = cuda::probeDriverLibrary("libivc-no-such-driver.so.1");
  ASSERT_FALSE(s.ok());
  if (cuda::builtWithCuda())
    EXPECT_EQ(s.error().message, "libivc-no-such-driver.so.1 not found (no NVIDIA driver)");
  else
    EXPECT_EQ(s.error().message, "built without CUDA support");
}

TEST(CudaDriver, StatusOnThisMachine) {
  Status s = cuda::driverStatus();
  if (!cuda::builtWithCuda()) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "built without CUDA support");
    return;
  }
  void *lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().message, "libcuda.so.1 not found (no NVIDIA driver)");
    Result<int> count = cuda::deviceCount();
    EXPECT_FALSE(count.ok());
    return;
  }
  ::dlclose(lib);
  // A driver is installed: either it works, or it says why not.
  if (!s.ok())
    EXPECT_FALSE(s.error().message.empty());
  else
    EXPECT_GT(*cuda::deviceCount(), 0);
}

TEST(CudaArena, CreateWithoutADriverFailsCleanly) {
  if (cuda::driverStatus().ok())
    GTEST_SKIP() << "a CUDA driver is usable here";
  Result<std::shared_ptr<CudaHostArena>> a = CudaHostArena::create(0, 1 << 20, 1 << 20);
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, cuda::driverStatus().error().message);
}

TEST(CudaArenaLayout, RegionsAndAlignment) {
  Result<CudaArenaLayout> l = CudaArenaLayout::make(1000, 300);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->downloadBytes(), 1024u);
  EXPECT_EQ(l->uploadBytes(), 512u);
  EXPECT_EQ(l->totalBytes(), 1536u);
  EXPECT_EQ(*l->regionStart(CudaDownloadSpace), 0u);
  EXPECT_EQ(*l->regionStart(CudaUploadSpace), 1024u);
  EXPECT_FALSE(l->regionStart(1).has_value());
  EXPECT_FALSE(CudaArenaLayout::make(0, 10).ok());
  EXPECT_FALSE(CudaArenaLayout::make(10, 0).ok());
  EXPECT_FALSE(CudaArenaLayout::make(1ull << 60, 10).ok());
}

TEST(CudaArenaLayout, BumpAllocationUntilFullThenReset) {
  Result<CudaArenaLayout> l = CudaArenaLayout::make(1024, 256);
  ASSERT_TRUE(l.ok());
  Result<Placement> a = l->allocateDownload(10);
  Result<Placement> b = l->allocateDownload(256);
  Result<Placement> c = l->allocateDownload(0);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->space, CudaDownloadSpace);
  EXPECT_EQ(a->offset, 0u);
  EXPECT_EQ(b->offset, 256u);
  EXPECT_EQ(c->offset, 512u);
  Result<Placement> full = l->allocateDownload(512);
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.error().message.find("SandboxConfig.download_bytes"), std::string::npos);
  EXPECT_FALSE(l->allocateDownload(~0ull).ok());
  l->reset();
  Result<Placement> again = l->allocateDownload(1024);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->offset, 0u);
}

TEST(CudaArenaLayout, HostileDescriptorsDoNotResolve) {
  Result<CudaArenaLayout> l = CudaArenaLayout::make(1024, 512);
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(*l->resolve(CudaUploadSpace, 0, 512), 1024u);
  EXPECT_EQ(*l->resolve(CudaDownloadSpace, 1000, 24), 1000u);
  EXPECT_FALSE(l->resolve(CudaUploadSpace, 1, 512).has_value());
  EXPECT_FALSE(l->resolve(CudaUploadSpace, 513, 0).has_value());
  EXPECT_FALSE(l->resolve(CudaDownloadSpace, 1000, 25).has_value());
  EXPECT_FALSE(l->resolve(CudaDownloadSpace, ~0ull, 2).has_value());   // offset + n wraps
  EXPECT_FALSE(l->resolve(CudaDownloadSpace, 8, ~0ull - 4).has_value()); // n huge
  EXPECT_FALSE(l->resolve(7, 0, 1).has_value());
  EXPECT_FALSE(l->resolve(InProcessSpace, 0, 1).has_value());
}

CudaAnnouncement sampleAnnouncement() {
  CudaAnnouncement a;
  a.pciBusId = "0000:3b:00.0";
  a.memory.fill(1);
  a.toWorker.fill(2);
  a.toHost.fill(3);
  a.downloadBytes = 1 << 20;
  a.uploadBytes = 1 << 16;
  return a;
}

TEST(CudaAnnouncement, RoundTrips) {
  CudaAnnouncement a = sampleAnnouncement();
  Result<CudaAnnouncement> b = CudaAnnouncement::fromValue(a.toValue());
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->pciBusId, a.pciBusId);
  EXPECT_EQ(b->memory, a.memory);
  EXPECT_EQ(b->toWorker, a.toWorker);
  EXPECT_EQ(b->toHost, a.toHost);
  EXPECT_EQ(b->downloadBytes, a.downloadBytes);
  EXPECT_EQ(b->uploadBytes, a.uploadBytes);
}

// `edit` changes one entry of a valid announcement; the result must be
// refused as a protocol error.
void expectRefused(const std::function<void(Value &)> &edit, const char *what) {
  Value v = sampleAnnouncement().toValue();
  edit(v);
  Result<CudaAnnouncement> r = CudaAnnouncement::fromValue(v);
  ASSERT_FALSE(r.ok()) << what;
  EXPECT_EQ(r.error().kind, Error::Protocol) << what;
}

Value *entry(Value &dict, const char *key) {
  std::vector<Value> &kv = dict.items();
  for (size_t i = 0; i < kv.size(); i += 2)
    if (kv[i].asString() == key)
      return &kv[i + 1];
  return nullptr;
}

TEST(CudaAnnouncement, MalformedIsAProtocolError) {
  expectRefused([](Value &v) { v = Value::list(); }, "not a dict");
  expectRefused([](Value &v) { *entry(v, "memory") = Value::bytes(std::string(63, 'x')); },
                "short handle");
  expectRefused([](Value &v) { *entry(v, "to_host") = Value::bytes(std::string(65, 'x')); },
                "long handle");
  expectRefused([](Value &v) { *entry(v, "to_worker") = Value::str(std::string(64, 'x')); },
                "handle as str");
  expectRefused([](Value &v) { *entry(v, "pci_bus_id") = Value::str("../../dev/x"); },
                "bus id with a path");
  expectRefused([](Value &v) { *entry(v, "pci_bus_id") = Value::str(std::string(40, '0')); },
                "bus id too long");
  expectRefused([](Value &v) { *entry(v, "download") = Value::integer(0); }, "empty region");
  expectRefused([](Value &v) { *entry(v, "upload") = Value::integer(-256); }, "negative region");
  expectRefused([](Value &v) { *entry(v, "upload") = Value::integer(1000); }, "unaligned region");
  expectRefused([](Value &v) { *entry(v, "download") = Value::integer(1ll << 60); },
                "huge region");
  expectRefused([](Value &v) { v.set("extra", Value::none()); }, "extra key");
  expectRefused(
      [](Value &v) {
        std::vector<Value> &kv = v.items();
        kv.erase(kv.end() - 2, kv.end());
        v.set("memory", Value::bytes(std::string(64, 'y'))); // duplicate, "upload" gone
      },
      "duplicate key");
}

TEST(SandboxConfig, TransportIsValidated) {
  SandboxConfig c;
  EXPECT_EQ(c.transport, "shared-memory");
  EXPECT_FALSE(c.cudaTransport());
  c.transport = "cuda-ipc";
  c.cudaDevice = 3;
  Result<SandboxConfig> back = SandboxConfig::fromValue(c.toValue());
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->cudaTransport());
  EXPECT_EQ(back->cudaDevice, 3u);
  EXPECT_NE(back->fingerprint(), SandboxConfig().fingerprint());
  Value v = c.toValue();
  *entry(v, "transport") = Value::str("nvlink");
  EXPECT_FALSE(SandboxConfig::fromValue(v).ok());
}

} // namespace
