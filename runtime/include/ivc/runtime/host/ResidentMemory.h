//===- ResidentMemory.h - This process's resident memory ------------------===//
//
// What a FAST mediator's memory budget is charged in: it runs in the host
// process, so the host measures how much that process's resident memory grew
// during the mediator's turns (docs/runtime.md, "Limits").
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_RESIDENTMEMORY_H
#define IVC_RUNTIME_HOST_RESIDENTMEMORY_H

#include "ivc/runtime/support/Result.h"

#include <cstdint>

namespace ivc::runtime {

/// Bytes of this process in RAM (the resident field of /proc/self/statm),
/// read through a descriptor opened on the first call: about a microsecond.
Result<uint64_t> residentBytes();

} // namespace ivc::runtime

#endif
