//===- FakeCudaDriver.cpp - libcuda.so.1 for tests without a GPU ----------===//
//
// The entry points the cuda-ipc transport resolves, with the rules of the
// real driver that the transport depends on enforced, so a mistake in the
// transport fails here rather than first on a GPU server:
//  - memory, event and IPC calls need a current context that is retained;
//  - IPC handles cannot be opened by the process that exported them;
//  - interprocess events must disable timing;
//  - closing or destroying something not live is an invalid handle.
// Two devices, with different PCI bus ids, so opening by bus id rather than
// by ordinal is visible. Streams complete synchronously, unless a test
// declares this process's device busy (ivcFakeCudaBusy): then its streams
// have work queued and the events it records stay pending until it is idle
// again. Waits only count themselves.
//
//===----------------------------------------------------------------------===//
#include "FakeCudaHooks.h"

#include <cuda.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <string>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

constexpr int DeviceCount = 2;
const char *const BusIds[DeviceCount] = {"0000:0A:00.0", "0000:0B:00.0"};

/// What a 64-byte IPC handle holds: enough to find the shared memory.
struct IpcBlob {
  char magic[8];
  uint32_t kind;
  int32_t pid; // the exporting process
  uint64_t bytes;
  char name[40]; // shm_open name
};
static_assert(sizeof(IpcBlob) == CU_IPC_HANDLE_SIZE, "IPC handles are 64 bytes");
constexpr char Magic[8] = "ivcfake";
enum : uint32_t { MemoryBlob = 1, EventBlob = 2 };

/// An interprocess event's shared counters.
struct EventCounters {
  std::atomic<int64_t> records, waits, syncs;
  std::atomic<int32_t> pendingFor; // pid whose busy device recorded it last, or 0
};

} // namespace

struct CUctx_st {
  int device;
  int refs;
};

struct CUevent_st {
  bool interprocess;
  std::string name;        // shared memory of the counters, if interprocess
  bool exported;           // created here (unlinked at destroy) rather than opened
  EventCounters *counters; // shared mapping, or owned when not interprocess
};

namespace {

struct Allocation {
  size_t bytes;
  std::string name;
};

std::mutex lock;
CUctx_st primaries[DeviceCount] = {{0, 0}, {1, 0}};
std::map<CUdeviceptr, Allocation> allocations;
std::map<CUdeviceptr, size_t> mappings;
std::vector<CUevent_st *> events;
std::string failEntry;
int failSkip = 0;
std::atomic<bool> busy{false}; // ivcFakeCudaBusy
unsigned serial = 0;
thread_local std::vector<CUctx_st *> contextStack;

bool shouldFail(const char *entry) {
  std::lock_guard<std::mutex> g(lock);
  if (failEntry != entry)
    return false;
  if (failSkip-- > 0)
    return false;
  failEntry.clear();
  return true;
}

/// Every entry point starts with this: the injected failure, if any.
#define FAKE_ENTRY(name)                                                                           \
  if (shouldFail(name))                                                                            \
  return CUDA_ERROR_OUT_OF_MEMORY

CUresult needContext() {
  if (contextStack.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  return contextStack.back()->refs > 0 ? CUDA_SUCCESS : CUDA_ERROR_CONTEXT_IS_DESTROYED;
}

/// Entry points that work on the current context also need one.
#define FAKE_CONTEXT_ENTRY(name)                                                                   \
  FAKE_ENTRY(name);                                                                                \
  if (CUresult rc = needContext())                                                                 \
  return rc

std::string freshName() {
  std::lock_guard<std::mutex> g(lock);
  char name[40];
  std::snprintf(name, sizeof name, "/ivc-fakecuda-%d-%u", static_cast<int>(::getpid()), serial++);
  return name;
}

/// Creates and maps `bytes` of shared memory under `name`.
void *createShared(const std::string &name, size_t bytes) {
  int fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0)
    return nullptr;
  void *p = nullptr;
  if (::ftruncate(fd, static_cast<off_t>(bytes)) == 0)
    p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  if (p == MAP_FAILED || !p) {
    ::shm_unlink(name.c_str());
    return nullptr;
  }
  return p;
}

void *openShared(const char *name, size_t bytes) {
  int fd = ::shm_open(name, O_RDWR, 0);
  if (fd < 0)
    return nullptr;
  void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  ::close(fd);
  return p == MAP_FAILED ? nullptr : p;
}

IpcBlob makeBlob(uint32_t kind, uint64_t bytes, const std::string &name) {
  IpcBlob b{};
  std::memcpy(b.magic, Magic, sizeof Magic);
  b.kind = kind;
  b.pid = static_cast<int32_t>(::getpid());
  b.bytes = bytes;
  std::snprintf(b.name, sizeof b.name, "%s", name.c_str());
  return b;
}

/// The blob of a handle, if it is one of the fake's of `kind`.
bool readBlob(const void *handle, uint32_t kind, IpcBlob &b) {
  std::memcpy(&b, handle, sizeof b);
  return std::memcmp(b.magic, Magic, sizeof Magic) == 0 && b.kind == kind &&
         std::memchr(b.name, 0, sizeof b.name) != nullptr;
}

bool liveEvent(CUevent e) {
  std::lock_guard<std::mutex> g(lock);
  for (CUevent_st *x : events)
    if (x == e)
      return true;
  return false;
}

CUevent_st *addEvent(bool interprocess, std::string name, bool exported, EventCounters *c) {
  CUevent_st *e = new CUevent_st{interprocess, std::move(name), exported, c};
  std::lock_guard<std::mutex> g(lock);
  events.push_back(e);
  return e;
}

/// The counters of an event handle, mapped for the moment of one read.
int64_t readCounter(const void *handle, std::atomic<int64_t> EventCounters::*which) {
  IpcBlob b;
  if (!readBlob(handle, EventBlob, b))
    return -1;
  void *p = openShared(b.name, sizeof(EventCounters));
  if (!p)
    return -1;
  int64_t n = (static_cast<EventCounters *>(p)->*which).load();
  ::munmap(p, sizeof(EventCounters));
  return n;
}

} // namespace

extern "C" {

CUresult cuInit(unsigned flags) {
  FAKE_ENTRY("cuInit");
  return flags == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGetErrorString(CUresult rc, const char **text) {
  switch (rc) {
  case CUDA_SUCCESS: *text = "no error"; break;
  case CUDA_ERROR_INVALID_VALUE: *text = "invalid argument"; break;
  case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
  case CUDA_ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
  case CUDA_ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
  case CUDA_ERROR_CONTEXT_IS_DESTROYED: *text = "context is destroyed"; break;
  case CUDA_ERROR_INVALID_HANDLE: *text = "invalid resource handle"; break;
  default: *text = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int *count) {
  FAKE_ENTRY("cuDeviceGetCount");
  *count = DeviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  FAKE_ENTRY("cuDeviceGet");
  if (ordinal < 0 || ordinal >= DeviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetPCIBusId(char *busId, int len, CUdevice device) {
  FAKE_ENTRY("cuDeviceGetPCIBusId");
  if (device < 0 || device >= DeviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  if (len < static_cast<int>(std::strlen(BusIds[device]) + 1))
    return CUDA_ERROR_INVALID_VALUE;
  std::strcpy(busId, BusIds[device]);
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetByPCIBusId(CUdevice *device, const char *busId) {
  FAKE_ENTRY("cuDeviceGetByPCIBusId");
  for (int d = 0; d < DeviceCount; ++d)
    if (::strcasecmp(busId, BusIds[d]) == 0) {
      *device = d;
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_INVALID_DEVICE;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device) {
  FAKE_ENTRY("cuDevicePrimaryCtxRetain");
  if (device < 0 || device >= DeviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> g(lock);
  ++primaries[device].refs;
  *ctx = &primaries[device];
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice device) {
  FAKE_ENTRY("cuDevicePrimaryCtxRelease");
  if (device < 0 || device >= DeviceCount)
    return CUDA_ERROR_INVALID_DEVICE;
  std::lock_guard<std::mutex> g(lock);
  if (primaries[device].refs == 0)
    return CUDA_ERROR_INVALID_CONTEXT;
  --primaries[device].refs;
  return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent(CUcontext ctx) {
  FAKE_ENTRY("cuCtxPushCurrent");
  if (ctx < primaries || ctx >= primaries + DeviceCount)
    return CUDA_ERROR_INVALID_CONTEXT;
  contextStack.push_back(ctx);
  return CUDA_SUCCESS;
}

CUresult cuCtxPopCurrent(CUcontext *ctx) {
  FAKE_ENTRY("cuCtxPopCurrent");
  if (contextStack.empty())
    return CUDA_ERROR_INVALID_CONTEXT;
  *ctx = contextStack.back();
  contextStack.pop_back();
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  FAKE_CONTEXT_ENTRY("cuMemAlloc");
  if (bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  std::string name = freshName();
  void *p = createShared(name, bytes);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  std::lock_guard<std::mutex> g(lock);
  allocations[*ptr] = Allocation{bytes, name};
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr ptr) {
  FAKE_CONTEXT_ENTRY("cuMemFree");
  std::lock_guard<std::mutex> g(lock);
  auto it = allocations.find(ptr);
  if (it == allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  ::munmap(reinterpret_cast<void *>(ptr), it->second.bytes);
  ::shm_unlink(it->second.name.c_str());
  allocations.erase(it);
  return CUDA_SUCCESS;
}

// Streams complete synchronously, so the copy is done when this returns.
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream) {
  FAKE_CONTEXT_ENTRY("cuMemcpyDtoDAsync");
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), bytes);
  return CUDA_SUCCESS;
}

CUresult cuIpcGetMemHandle(CUipcMemHandle *handle, CUdeviceptr ptr) {
  FAKE_CONTEXT_ENTRY("cuIpcGetMemHandle");
  std::lock_guard<std::mutex> g(lock);
  auto it = allocations.find(ptr);
  if (it == allocations.end())
    return CUDA_ERROR_INVALID_VALUE;
  IpcBlob b = makeBlob(MemoryBlob, it->second.bytes, it->second.name);
  std::memcpy(handle, &b, sizeof b);
  return CUDA_SUCCESS;
}

CUresult cuIpcOpenMemHandle(CUdeviceptr *ptr, CUipcMemHandle handle, unsigned flags) {
  FAKE_CONTEXT_ENTRY("cuIpcOpenMemHandle");
  IpcBlob b;
  if (flags != CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS || !readBlob(&handle, MemoryBlob, b))
    return CUDA_ERROR_INVALID_VALUE;
  if (b.pid == ::getpid())
    return CUDA_ERROR_INVALID_CONTEXT; // the exporter cannot open its own handle
  void *p = openShared(b.name, b.bytes);
  if (!p)
    return CUDA_ERROR_INVALID_HANDLE;
  *ptr = reinterpret_cast<CUdeviceptr>(p);
  std::lock_guard<std::mutex> g(lock);
  mappings[*ptr] = b.bytes;
  return CUDA_SUCCESS;
}

CUresult cuIpcCloseMemHandle(CUdeviceptr ptr) {
  FAKE_CONTEXT_ENTRY("cuIpcCloseMemHandle");
  std::lock_guard<std::mutex> g(lock);
  auto it = mappings.find(ptr);
  if (it == mappings.end())
    return CUDA_ERROR_INVALID_HANDLE;
  ::munmap(reinterpret_cast<void *>(ptr), it->second);
  mappings.erase(it);
  return CUDA_SUCCESS;
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  FAKE_CONTEXT_ENTRY("cuEventCreate");
  bool interprocess = flags & CU_EVENT_INTERPROCESS;
  if (interprocess && !(flags & CU_EVENT_DISABLE_TIMING))
    return CUDA_ERROR_INVALID_VALUE;
  if (!interprocess) {
    *event = addEvent(false, "", true, new EventCounters{});
    return CUDA_SUCCESS;
  }
  std::string name = freshName();
  void *p = createShared(name, sizeof(EventCounters));
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *event = addEvent(true, name, true, new (p) EventCounters{});
  return CUDA_SUCCESS;
}

CUresult cuEventDestroy(CUevent event) {
  FAKE_ENTRY("cuEventDestroy");
  {
    std::lock_guard<std::mutex> g(lock);
    auto it = std::find(events.begin(), events.end(), event);
    if (it == events.end())
      return CUDA_ERROR_INVALID_HANDLE;
    events.erase(it);
  }
  if (!event->interprocess) {
    delete event->counters;
  } else {
    ::munmap(event->counters, sizeof(EventCounters));
    if (event->exported)
      ::shm_unlink(event->name.c_str());
  }
  delete event;
  return CUDA_SUCCESS;
}

CUresult cuIpcGetEventHandle(CUipcEventHandle *handle, CUevent event) {
  FAKE_CONTEXT_ENTRY("cuIpcGetEventHandle");
  if (!liveEvent(event) || !event->interprocess || !event->exported)
    return CUDA_ERROR_INVALID_HANDLE;
  IpcBlob b = makeBlob(EventBlob, sizeof(EventCounters), event->name);
  std::memcpy(handle, &b, sizeof b);
  return CUDA_SUCCESS;
}

CUresult cuIpcOpenEventHandle(CUevent *event, CUipcEventHandle handle) {
  FAKE_CONTEXT_ENTRY("cuIpcOpenEventHandle");
  IpcBlob b;
  if (!readBlob(&handle, EventBlob, b))
    return CUDA_ERROR_INVALID_VALUE;
  if (b.pid == ::getpid())
    return CUDA_ERROR_INVALID_CONTEXT;
  void *p = openShared(b.name, sizeof(EventCounters));
  if (!p)
    return CUDA_ERROR_INVALID_HANDLE;
  *event = addEvent(true, b.name, false, static_cast<EventCounters *>(p));
  return CUDA_SUCCESS;
}

CUresult cuEventRecord(CUevent event, CUstream) {
  FAKE_CONTEXT_ENTRY("cuEventRecord");
  if (!liveEvent(event))
    return CUDA_ERROR_INVALID_HANDLE;
  ++event->counters->records;
  event->counters->pendingFor = busy ? static_cast<int32_t>(::getpid()) : 0;
  return CUDA_SUCCESS;
}

CUresult cuEventQuery(CUevent event) {
  FAKE_ENTRY("cuEventQuery");
  if (!liveEvent(event))
    return CUDA_ERROR_INVALID_HANDLE;
  return event->counters->pendingFor ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuStreamQuery(CUstream) {
  FAKE_CONTEXT_ENTRY("cuStreamQuery");
  return busy ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
}

CUresult cuEventSynchronize(CUevent event) {
  FAKE_ENTRY("cuEventSynchronize");
  if (!liveEvent(event))
    return CUDA_ERROR_INVALID_HANDLE;
  ++event->counters->syncs;
  event->counters->pendingFor = 0; // the work it marks has finished
  return CUDA_SUCCESS;
}

CUresult cuStreamWaitEvent(CUstream, CUevent event, unsigned flags) {
  FAKE_CONTEXT_ENTRY("cuStreamWaitEvent");
  if (flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (!liveEvent(event))
    return CUDA_ERROR_INVALID_HANDLE;
  ++event->counters->waits;
  return CUDA_SUCCESS;
}

// --- test hooks (FakeCudaHooks.h) -------------------------------------------

IvcFakeCudaCounts ivcFakeCudaCounts() {
  std::lock_guard<std::mutex> g(lock);
  IvcFakeCudaCounts c{};
  c.allocations = static_cast<int>(allocations.size());
  c.mappings = static_cast<int>(mappings.size());
  c.events = static_cast<int>(events.size());
  for (const CUctx_st &p : primaries)
    c.retained += p.refs;
  c.pushed = static_cast<int>(contextStack.size());
  c.currentDevice = contextStack.empty() ? -1 : contextStack.back()->device;
  return c;
}

void ivcFakeCudaFail(const char *entry, int skip) {
  std::lock_guard<std::mutex> g(lock);
  failEntry = entry ? entry : "";
  failSkip = skip;
}

int64_t ivcFakeCudaRecords(const void *handle) { return readCounter(handle, &EventCounters::records); }
int64_t ivcFakeCudaWaits(const void *handle) { return readCounter(handle, &EventCounters::waits); }
int64_t ivcFakeCudaSyncs(const void *handle) { return readCounter(handle, &EventCounters::syncs); }

void ivcFakeCudaBusy(int queued) {
  std::lock_guard<std::mutex> g(lock);
  busy = queued != 0;
  if (busy)
    return;
  for (CUevent_st *e : events) // this process's pending records complete
    if (e->counters->pendingFor == static_cast<int32_t>(::getpid()))
      e->counters->pendingFor = 0;
}

void *ivcFakeCudaPrimaryContext(int device) {
  return device >= 0 && device < DeviceCount ? &primaries[device] : nullptr;
}

} // extern "C"
