//===- CudaDriver.h - The CUDA driver, loaded at run time -----------------===//
//
// The CUDA-IPC transport talks to the driver API through libcuda.so.1,
// opened with dlopen the first time it is needed: ivc links no CUDA library,
// so the same build runs on machines with and without an NVIDIA driver (and
// next to whichever CUDA runtime torch bundles). The function table itself
// is private to the transport (transport/CudaDriverTable.h); this header
// only says whether the driver can be used, and why not.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_CUDADRIVER_H
#define IVC_RUNTIME_TRANSPORT_CUDADRIVER_H

#include "ivc/runtime/support/Result.h"

namespace ivc::runtime::cuda {

/// Whether this build has the CUDA transport at all (cuda.h was found when
/// it was configured).
bool builtWithCuda();

/// Loads libcuda.so.1 and initializes the driver, once per process
/// (thread-safe; later calls return the first outcome). The error says why
/// the transport cannot be used: "built without CUDA support",
/// "libcuda.so.1 not found (no NVIDIA driver)", "no CUDA device", or the
/// driver's own error string.
Status driverStatus();

/// Number of devices the driver sees, or why none can be used.
Result<int> deviceCount();

/// Loads `soname` and resolves the driver's entry points without
/// initializing anything and without caching: how driverStatus() reports a
/// missing library, for tests.
Status probeDriverLibrary(const char *soname);

} // namespace ivc::runtime::cuda

#endif
