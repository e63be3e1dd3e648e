//===- CudaArena.cpp - Device arena: export on the host, open in a worker -===//
//
// All driver calls run with the device's primary context pushed: it is the
// context torch's CUDA runtime uses, so the arena's memory and events are
// usable from torch in the same process.
//
// Ordering (docs/runtime.md, "Ordering on the device"): any device-side
// dependency between the two processes makes the GPU switch between their
// contexts, about 0.1 ms each way on an H100. So the worker, which usually
// only reads, never enqueues ordering work: it waits on the CPU for the
// host's copies, and records its event only when its own stream has work
// queued; the host's stream waits only for an event that is not yet done.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/transport/CudaArena.h"

#include "ivc/runtime/transport/CudaDriver.h"

#ifdef IVC_HAVE_CUDA
#include "CudaDriverTable.h"

#include <cstring>
#endif

namespace ivc::runtime {

std::optional<uint64_t> CudaHostArena::regionAddress(uint32_t space) const {
  std::optional<uint64_t> start = layout_.regionStart(space);
  return start ? std::optional<uint64_t>(base_ + *start) : std::nullopt;
}

std::optional<uint64_t> CudaHostArena::resolve(uint32_t space, uint64_t offset,
                                               uint64_t nbytes) const {
  std::optional<uint64_t> at = layout_.resolve(space, offset, nbytes);
  return at ? std::optional<uint64_t>(base_ + *at) : std::nullopt;
}

std::optional<uint64_t> CudaWorkerArena::regionAddress(uint32_t space) const {
  std::optional<uint64_t> start = layout_.regionStart(space);
  return start ? std::optional<uint64_t>(base_ + *start) : std::nullopt;
}

#ifndef IVC_HAVE_CUDA

Result<std::shared_ptr<CudaHostArena>> CudaHostArena::create(int, uint64_t, uint64_t) {
  return cuda::driverStatus().error();
}
CudaHostArena::~CudaHostArena() = default;
Result<Placement> CudaHostArena::copyIntoDownload(uint64_t, uint64_t, uint64_t) {
  return cuda::driverStatus().error();
}
Status CudaHostArena::recordForWorker(uint64_t) { return cuda::driverStatus(); }
Status CudaHostArena::waitForWorker(uint64_t) { return cuda::driverStatus(); }

Result<std::shared_ptr<CudaWorkerArena>> CudaWorkerArena::open(const CudaAnnouncement &) {
  return cuda::driverStatus().error();
}
CudaWorkerArena::~CudaWorkerArena() = default;
Status CudaWorkerArena::waitForHost() { return cuda::driverStatus(); }
Status CudaWorkerArena::recordForHost(uint64_t) { return cuda::driverStatus(); }
Status CudaWorkerArena::copyIntoUpload(uint64_t, uint64_t, uint64_t, uint64_t) {
  return cuda::driverStatus();
}
Status CudaWorkerArena::close() { return Status::success(); }

#else

using cuda::check;
using cuda::DriverTable;
using cuda::ScopedContext;

namespace {

CUcontext ctx(void *p) { return static_cast<CUcontext>(p); }
CUevent event(void *p) { return static_cast<CUevent>(p); }
CUstream stream(uint64_t s) { return reinterpret_cast<CUstream>(static_cast<uintptr_t>(s)); }

template <typename Handle> CudaIpcHandle blob(const Handle &h) {
  static_assert(sizeof(Handle) == CudaIpcHandleBytes, "IPC handles are 64 bytes");
  CudaIpcHandle out;
  std::memcpy(out.data(), &h, out.size());
  return out;
}

template <typename Handle> Handle fromBlob(const CudaIpcHandle &b) {
  static_assert(sizeof(Handle) == CudaIpcHandleBytes, "IPC handles are 64 bytes");
  Handle h;
  std::memcpy(&h, b.data(), b.size());
  return h;
}

Error noContext() { return Error::io("cannot make the device's primary context current"); }

/// Driver calls with `context` current: `call(driver)` returns their Status.
template <typename Call> Status inContext(void *context, Call call) {
  Result<const DriverTable *> drv = cuda::driver();
  if (!drv)
    return drv.takeError();
  ScopedContext scope(**drv, ctx(context));
  if (!scope.ok())
    return noContext();
  return call(**drv);
}

constexpr unsigned InterprocessEventFlags = CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;

} // namespace

Result<std::shared_ptr<CudaHostArena>> CudaHostArena::create(int device, uint64_t downloadBytes,
                                                             uint64_t uploadBytes) {
  Result<const DriverTable *> drv = cuda::driver();
  if (!drv)
    return drv.takeError();
  const DriverTable &d = **drv;
  Result<CudaArenaLayout> layout = CudaArenaLayout::make(downloadBytes, uploadBytes);
  if (!layout)
    return layout.takeError();
  std::shared_ptr<CudaHostArena> a(new CudaHostArena(*layout));
  CUdevice dev;
  if (Status s = check(d, d.cuDeviceGet(&dev, device), "cuDeviceGet"); !s)
    return s.error();
  char bus[64] = {};
  if (Status s = check(d, d.cuDeviceGetPCIBusId(bus, sizeof bus - 1, dev), "cuDeviceGetPCIBusId");
      !s)
    return s.error();
  CUcontext primary;
  if (Status s = check(d, d.cuDevicePrimaryCtxRetain(&primary, dev), "cuDevicePrimaryCtxRetain");
      !s)
    return s.error();
  a->device_ = device; // from here on the destructor releases what was made
  a->context_ = primary;
  ScopedContext scope(d, primary);
  if (!scope.ok())
    return noContext();
  CUdeviceptr base;
  if (Status s = check(d, d.cuMemAlloc(&base, a->layout_.totalBytes()), "cuMemAlloc"); !s)
    return s.error();
  a->base_ = base;
  CUevent toWorker, toHost;
  if (Status s = check(d, d.cuEventCreate(&toWorker, InterprocessEventFlags), "cuEventCreate"); !s)
    return s.error();
  a->toWorker_ = toWorker;
  if (Status s = check(d, d.cuEventCreate(&toHost, InterprocessEventFlags), "cuEventCreate"); !s)
    return s.error();
  a->toHost_ = toHost;
  CUipcMemHandle mem;
  CUipcEventHandle ev1, ev2;
  if (Status s = check(d, d.cuIpcGetMemHandle(&mem, base), "cuIpcGetMemHandle"); !s)
    return s.error();
  if (Status s = check(d, d.cuIpcGetEventHandle(&ev1, toWorker), "cuIpcGetEventHandle"); !s)
    return s.error();
  if (Status s = check(d, d.cuIpcGetEventHandle(&ev2, toHost), "cuIpcGetEventHandle"); !s)
    return s.error();
  a->announcement_.pciBusId = bus;
  a->announcement_.memory = blob(mem);
  a->announcement_.toWorker = blob(ev1);
  a->announcement_.toHost = blob(ev2);
  a->announcement_.downloadBytes = a->layout_.downloadBytes();
  a->announcement_.uploadBytes = a->layout_.uploadBytes();
  return a;
}

CudaHostArena::~CudaHostArena() {
  Result<const DriverTable *> drv = cuda::driver();
  if (!drv || !context_)
    return;
  const DriverTable &d = **drv;
  {
    ScopedContext scope(d, ctx(context_));
    if (scope.ok()) {
      // The worker has exited (Worker waits for it) so nothing else maps
      // this memory; the host's own copies out of it are stream-ordered
      // before the free.
      if (toWorker_)
        d.cuEventDestroy(event(toWorker_));
      if (toHost_)
        d.cuEventDestroy(event(toHost_));
      if (base_)
        d.cuMemFree(static_cast<CUdeviceptr>(base_));
    }
  }
  CUdevice dev;
  if (d.cuDeviceGet(&dev, device_) == CUDA_SUCCESS)
    d.cuDevicePrimaryCtxRelease(dev);
}

Result<Placement> CudaHostArena::copyIntoDownload(uint64_t source, uint64_t nbytes, uint64_t s) {
  Result<Placement> at = allocateDownload(nbytes);
  if (!at)
    return at;
  uint64_t to = *resolve(at->space, at->offset, nbytes);
  Status copied = inContext(context_, [&](const DriverTable &d) {
    return check(d, d.cuMemcpyDtoDAsync(to, source, nbytes, stream(s)), "cuMemcpyDtoDAsync");
  });
  if (!copied)
    return copied.error();
  return at;
}

Status CudaHostArena::recordForWorker(uint64_t s) {
  return inContext(context_, [&](const DriverTable &d) {
    return check(d, d.cuEventRecord(event(toWorker_), stream(s)), "cuEventRecord");
  });
}

Status CudaHostArena::waitForWorker(uint64_t s) {
  return inContext(context_, [&](const DriverTable &d) {
    CUresult done = d.cuEventQuery(event(toHost_));
    if (done != CUDA_ERROR_NOT_READY)
      return check(d, done, "cuEventQuery");
    return check(d, d.cuStreamWaitEvent(stream(s), event(toHost_), 0), "cuStreamWaitEvent");
  });
}

Result<std::shared_ptr<CudaWorkerArena>> CudaWorkerArena::open(const CudaAnnouncement &ann) {
  Result<const DriverTable *> drv = cuda::driver();
  if (!drv)
    return drv.takeError();
  const DriverTable &d = **drv;
  Result<CudaArenaLayout> layout = CudaArenaLayout::make(ann.downloadBytes, ann.uploadBytes);
  if (!layout)
    return layout.takeError();
  std::shared_ptr<CudaWorkerArena> a(new CudaWorkerArena(*layout));
  CUdevice dev;
  if (Status s = check(d, d.cuDeviceGetByPCIBusId(&dev, ann.pciBusId.c_str()),
                       "cuDeviceGetByPCIBusId");
      !s)
    return s.error();
  CUcontext primary;
  if (Status s = check(d, d.cuDevicePrimaryCtxRetain(&primary, dev), "cuDevicePrimaryCtxRetain");
      !s)
    return s.error();
  a->device_ = static_cast<int>(dev); // a CUdevice is the ordinal
  a->context_ = primary;
  ScopedContext scope(d, primary);
  if (!scope.ok())
    return noContext();
  CUdeviceptr base;
  if (Status s = check(d,
                       d.cuIpcOpenMemHandle(&base, fromBlob<CUipcMemHandle>(ann.memory),
                                            CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
                       "cuIpcOpenMemHandle");
      !s)
    return s.error();
  a->base_ = base;
  CUevent toWorker, toHost;
  if (Status s = check(d, d.cuIpcOpenEventHandle(&toWorker, fromBlob<CUipcEventHandle>(ann.toWorker)),
                       "cuIpcOpenEventHandle");
      !s)
    return s.error();
  a->toWorker_ = toWorker;
  if (Status s = check(d, d.cuIpcOpenEventHandle(&toHost, fromBlob<CUipcEventHandle>(ann.toHost)),
                       "cuIpcOpenEventHandle");
      !s)
    return s.error();
  a->toHost_ = toHost;
  return a;
}

Status CudaWorkerArena::waitForHost() {
  if (!base_)
    return Error::invalid("the cuda-ipc arena is closed");
  return inContext(context_, [&](const DriverTable &d) {
    return check(d, d.cuEventSynchronize(event(toWorker_)), "cuEventSynchronize");
  });
}

Status CudaWorkerArena::recordForHost(uint64_t s) {
  if (!base_)
    return Error::invalid("the cuda-ipc arena is closed");
  return inContext(context_, [&](const DriverTable &d) {
    CUresult idle = d.cuStreamQuery(stream(s));
    if (idle != CUDA_ERROR_NOT_READY)
      return check(d, idle, "cuStreamQuery");
    return check(d, d.cuEventRecord(event(toHost_), stream(s)), "cuEventRecord");
  });
}

Status CudaWorkerArena::copyIntoUpload(uint64_t offset, uint64_t source, uint64_t nbytes,
                                       uint64_t s) {
  if (!base_)
    return Error::invalid("the cuda-ipc arena is closed");
  std::optional<uint64_t> at = layout_.resolve(CudaUploadSpace, offset, nbytes);
  if (!at)
    return Error::invalid("a copy into the cuda-ipc upload region out of its bounds");
  return inContext(context_, [&](const DriverTable &d) {
    return check(d, d.cuMemcpyDtoDAsync(base_ + *at, source, nbytes, stream(s)),
                 "cuMemcpyDtoDAsync");
  });
}

Status CudaWorkerArena::close() {
  Result<const DriverTable *> drv = cuda::driver();
  if (!drv || !context_)
    return Status::success();
  const DriverTable &d = **drv;
  Status result;
  {
    ScopedContext scope(d, ctx(context_));
    if (!scope.ok())
      return noContext();
    if (toWorker_)
      d.cuEventDestroy(event(toWorker_));
    if (toHost_)
      d.cuEventDestroy(event(toHost_));
    toWorker_ = toHost_ = nullptr;
    if (base_) {
      result = check(d, d.cuIpcCloseMemHandle(static_cast<CUdeviceptr>(base_)),
                     "cuIpcCloseMemHandle");
      base_ = 0;
    }
  }
  CUdevice dev;
  if (d.cuDeviceGet(&dev, device_) == CUDA_SUCCESS)
    d.cuDevicePrimaryCtxRelease(dev);
  context_ = nullptr;
  return result;
}

CudaWorkerArena::~CudaWorkerArena() { (void)close(); }

#endif

} // namespace ivc::runtime
