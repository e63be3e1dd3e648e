//===- FakeCudaHooks.h - What tests ask the fake CUDA driver --------------===//
//
// libcuda.so.1 built from FakeCudaDriver.cpp stands in for the NVIDIA driver
// in the cuda-ipc transport's tests on machines without a GPU: "device
// memory" is POSIX shared memory, so IPC handles open in other processes and
// device pointers are host addresses a test can read and write. These hooks
// let a test see what the transport left behind and make one entry point
// fail.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_UNITTESTS_RUNTIME_FAKECUDA_FAKECUDAHOOKS_H
#define IVC_UNITTESTS_RUNTIME_FAKECUDA_FAKECUDAHOOKS_H

#include <cstdint>

extern "C" {

/// The fake's live objects in this process.
struct IvcFakeCudaCounts {
  int allocations;   // cuMemAlloc'ed, not yet freed
  int mappings;      // cuIpcOpenMemHandle'd, not yet closed
  int events;        // created or opened, not yet destroyed
  int retained;      // primary-context references over all devices
  int pushed;        // contexts pushed on the calling thread
  int currentDevice; // device of the calling thread's current context, or -1
};
IvcFakeCudaCounts ivcFakeCudaCounts();

/// After `skip` more successful calls of `entry` (a name as in cuda.h,
/// without a _v2 suffix), the next one returns CUDA_ERROR_OUT_OF_MEMORY and
/// changes nothing. nullptr clears.
void ivcFakeCudaFail(const char *entry, int skip);

/// How often an interprocess event was recorded, waited on by a stream, and
/// waited for on the CPU, over all processes, by its 64-byte IPC handle; -1
/// if the handle is not the fake's.
int64_t ivcFakeCudaRecords(const void *ipcEventHandle);
int64_t ivcFakeCudaWaits(const void *ipcEventHandle);
int64_t ivcFakeCudaSyncs(const void *ipcEventHandle);

/// Nonzero: this process's streams have work queued (cuStreamQuery is not
/// ready) and the events it records stay pending. Zero: all of it completes.
void ivcFakeCudaBusy(int queued);

/// The primary context of `device`, for tests that make it current first.
void *ivcFakeCudaPrimaryContext(int device);
}

#endif
