//===- CudaLayout.cpp - Regions of the device arena, and their allocation -===//
#include "ivc/runtime/transport/CudaArena.h"

namespace ivc::runtime {

namespace {
uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
// Far below anything a device can hold; keeps every sum below from
// overflowing.
constexpr uint64_t MaxRegionBytes = 1ull << 48;
} // namespace

Result<CudaArenaLayout> CudaArenaLayout::make(uint64_t downloadBytes, uint64_t uploadBytes) {
  if (downloadBytes == 0 || uploadBytes == 0)
    return Error::invalid("cuda-ipc arena regions must not be empty");
  if (downloadBytes > MaxRegionBytes || uploadBytes > MaxRegionBytes)
    return Error::invalid("cuda-ipc arena regions must be below 2^48 bytes");
  // The upload region starts aligned, so every region offset the worker
  // aligns is aligned in the allocation too.
  return CudaArenaLayout(alignUp(downloadBytes, Alignment), alignUp(uploadBytes, Alignment));
}

std::optional<uint64_t> CudaArenaLayout::regionStart(uint32_t space) const {
  if (space == CudaDownloadSpace)
    return 0;
  if (space == CudaUploadSpace)
    return download_;
  return std::nullopt;
}

std::optional<uint64_t> CudaArenaLayout::regionBytes(uint32_t space) const {
  if (space == CudaDownloadSpace)
    return download_;
  if (space == CudaUploadSpace)
    return upload_;
  return std::nullopt;
}

Result<Placement> CudaArenaLayout::allocateDownload(uint64_t nbytes) {
  uint64_t need = alignUp(nbytes == 0 ? 1 : nbytes, Alignment);
  if (nbytes > download_ || need > download_ - cursor_)
    return Error::invalid("the cuda-ipc download region (" + std::to_string(download_) +
                          " bytes) cannot hold this job's deliveries; raise "
                          "SandboxConfig.download_bytes");
  Placement p{CudaDownloadSpace, cursor_};
  cursor_ += need;
  return p;
}

std::optional<uint64_t> CudaArenaLayout::resolve(uint32_t space, uint64_t offset,
                                                 uint64_t nbytes) const {
  std::optional<uint64_t> start = regionStart(space), size = regionBytes(space);
  if (!start || offset > *size || nbytes > *size - offset)
    return std::nullopt;
  return *start + offset;
}

} // namespace ivc::runtime
