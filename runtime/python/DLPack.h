//===- DLPack.h - Device memory handed to torch as a DLPack capsule -------===//
//
// The CUDA-IPC transport gives torch a view of the device arena without a
// copy and without sharing torch's C++ ABI: a "dltensor" PyCapsule, which
// torch.from_dlpack accepts from any producer. The structs are the public
// DLPack ABI (version 0.x, the one torch's capsule import reads), declared
// here because nothing else in ivc needs the DLPack headers.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_PYTHON_DLPACK_H
#define IVC_RUNTIME_PYTHON_DLPACK_H

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>

namespace ivc::runtime::python {

/// DLDeviceType values ivc produces.
enum class DLDeviceKind : int32_t { CPU = 1, CUDA = 2 };

/// A capsule describing `nbytes` bytes at `address` as a 1-D uint8 tensor
/// on the given device. `keepalive` owns the memory: it is held until the
/// consumer (torch) drops its tensor, or until the capsule is collected
/// unconsumed.
pybind11::capsule makeByteCapsule(uint64_t address, uint64_t nbytes, DLDeviceKind device,
                                  int32_t deviceId, std::shared_ptr<void> keepalive);

/// Capsules made and not yet released by their consumer (tests).
int64_t liveByteCapsules();

} // namespace ivc::runtime::python

#endif
