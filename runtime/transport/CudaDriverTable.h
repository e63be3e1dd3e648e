//===- CudaDriverTable.h - Driver API entry points, resolved with dlsym ---===//
//
// Private to the transport: only compiled where cuda.h was found
// (IVC_HAVE_CUDA). The members are typed by the declarations in cuda.h, and
// looked up under the names cuda.h maps them to (cuMemAlloc is
// cuMemAlloc_v2), so the table matches the ABI of the header it was built
// with.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_CUDADRIVERTABLE_H
#define IVC_RUNTIME_TRANSPORT_CUDADRIVERTABLE_H

#include "ivc/runtime/support/Result.h"

#include <cuda.h>

#include <string>

namespace ivc::runtime::cuda {

#define IVC_CUDA_DRIVER_FUNCTIONS(X)                                                               \
  X(cuInit)                                                                                        \
  X(cuGetErrorString)                                                                              \
  X(cuDeviceGetCount)                                                                              \
  X(cuDeviceGet)                                                                                   \
  X(cuDeviceGetPCIBusId)                                                                           \
  X(cuDeviceGetByPCIBusId)                                                                         \
  X(cuDevicePrimaryCtxRetain)                                                                      \
  X(cuDevicePrimaryCtxRelease)                                                                     \
  X(cuCtxPushCurrent)                                                                              \
  X(cuCtxPopCurrent)                                                                               \
  X(cuMemAlloc)                                                                                    \
  X(cuMemFree)                                                                                     \
  X(cuMemcpyDtoDAsync)                                                                             \
  X(cuIpcGetMemHandle)                                                                             \
  X(cuIpcOpenMemHandle)                                                                            \
  X(cuIpcCloseMemHandle)                                                                           \
  X(cuEventCreate)                                                                                 \
  X(cuEventDestroy)                                                                                \
  X(cuIpcGetEventHandle)                                                                           \
  X(cuIpcOpenEventHandle)                                                                          \
  X(cuEventRecord)                                                                                 \
  X(cuEventSynchronize)                                                                            \
  X(cuEventQuery)                                                                                  \
  X(cuStreamQuery)                                                                                 \
  X(cuStreamWaitEvent)

struct DriverTable {
#define IVC_CUDA_MEMBER(name) decltype(&::name) name = nullptr;
  IVC_CUDA_DRIVER_FUNCTIONS(IVC_CUDA_MEMBER)
#undef IVC_CUDA_MEMBER
};

/// The process-wide table, loaded and cuInit'ed once; or why not.
Result<const DriverTable *> driver();

/// Success, or `what: <the driver's error string>`.
Status check(const DriverTable &d, CUresult rc, const char *what);

/// Makes the primary context of a device current on this thread for the
/// lifetime of the object (push/pop, so a context torch made current is
/// restored afterwards).
class ScopedContext {
public:
  ScopedContext(const DriverTable &d, CUcontext ctx) : d_(d) {
    pushed_ = d_.cuCtxPushCurrent(ctx) == CUDA_SUCCESS;
  }
  ~ScopedContext() {
    CUcontext ignored;
    if (pushed_)
      d_.cuCtxPopCurrent(&ignored);
  }
  bool ok() const { return pushed_; }
  ScopedContext(const ScopedContext &) = delete;
  ScopedContext &operator=(const ScopedContext &) = delete;

private:
  const DriverTable &d_;
  bool pushed_ = false;
};

} // namespace ivc::runtime::cuda

#endif
