//===- CudaArena.h - The CUDA-IPC tensor space ----------------------------===//
//
// Device memory shared with one worker, so activations on the GPU cross the
// process boundary without visiting the CPU (docs/runtime.md, "Transports").
// One device allocation per worker, laid out like the shared-memory arena:
//  - a download region the host bump-allocates what it delivers in, kept for
//    the whole job (the worker may hold views of it);
//  - an upload region the worker writes what it sends into, reused message
//    after message (the host consumes a message before it replies).
// The host exports the allocation once (cuIpcGetMemHandle) together with two
// interprocess events that order the two processes' streams; the worker
// opens it once, before lockdown, and keeps it until it exits. Handles are
// 64-byte opaque blobs carried in the worker's "init" message.
//
// CudaArenaLayout and CudaAnnouncement are plain data (no device needed);
// CudaHostArena and CudaWorkerArena talk to the driver (CudaDriver.h) and
// report "built without CUDA support" where cuda.h was not found.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_TRANSPORT_CUDAARENA_H
#define IVC_RUNTIME_TRANSPORT_CUDAARENA_H

#include "ivc/runtime/codec/Value.h"
#include "ivc/runtime/transport/TensorSpace.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ivc::runtime {

/// Space ids of the device regions: far above the memfd segments' ids
/// (counted from 1), below InProcessSpace.
constexpr uint32_t CudaDownloadSpace = 0x40000000u;
constexpr uint32_t CudaUploadSpace = 0x40000001u;
inline bool isCudaSpace(uint32_t space) {
  return space == CudaDownloadSpace || space == CudaUploadSpace;
}

/// An IPC handle (memory or event): 64 opaque bytes from the driver.
constexpr size_t CudaIpcHandleBytes = 64;
using CudaIpcHandle = std::array<uint8_t, CudaIpcHandleBytes>;

/// Where the regions lie in the device allocation, and the host's bump
/// allocation of download space. Offsets are relative to the allocation.
class CudaArenaLayout {
public:
  static constexpr uint64_t Alignment = 256; // what cuMemAlloc guarantees
  static Result<CudaArenaLayout> make(uint64_t downloadBytes, uint64_t uploadBytes);

  uint64_t downloadBytes() const { return download_; }
  uint64_t uploadBytes() const { return upload_; }
  uint64_t totalBytes() const { return download_ + upload_; }
  /// Start of a region in the allocation, or nullopt for another space.
  std::optional<uint64_t> regionStart(uint32_t space) const;
  std::optional<uint64_t> regionBytes(uint32_t space) const;

  /// Room for `nbytes` in download space (fixed size: a full region is an
  /// error that names the setting to raise).
  Result<Placement> allocateDownload(uint64_t nbytes);
  /// At the end of a job: the worker's views of the last job are gone.
  void reset() { cursor_ = 0; }
  /// The allocation offset of [offset, offset + nbytes) in `space`, if it
  /// lies inside that region (overflow-checked: descriptors are hostile).
  std::optional<uint64_t> resolve(uint32_t space, uint64_t offset, uint64_t nbytes) const;

private:
  CudaArenaLayout(uint64_t download, uint64_t upload) : download_(download), upload_(upload) {}
  uint64_t download_, upload_;
  uint64_t cursor_ = 0;
};

/// What the worker needs to open the arena: sent in ("init", config,
/// segments, cuda) as a dict {"pci_bus_id", "memory", "to_worker",
/// "to_host", "download", "upload"}.
struct CudaAnnouncement {
  /// The device by PCI bus id, not by ordinal: the worker's environment does
  /// not carry the host's CUDA_VISIBLE_DEVICES, so ordinals may differ.
  std::string pciBusId;
  CudaIpcHandle memory{};
  /// Recorded by the host after its copies, waited on by the worker.
  CudaIpcHandle toWorker{};
  /// Recorded by the worker after its copies, waited on by the host.
  CudaIpcHandle toHost{};
  uint64_t downloadBytes = 0;
  uint64_t uploadBytes = 0;

  codec::Value toValue() const;
  /// Strict: exactly these keys, 64-byte handles, a bus id of the form
  /// the driver prints, region sizes a layout accepts. Error::protocol.
  static Result<CudaAnnouncement> fromValue(const codec::Value &v);
};

/// Host side: allocates, exports, allocates download space, resolves
/// descriptors, and orders the host's stream against the worker's.
class CudaHostArena final : public TensorSpace {
public:
  /// `device`: the driver ordinal (torch's, in the host process).
  static Result<std::shared_ptr<CudaHostArena>> create(int device, uint64_t downloadBytes,
                                                       uint64_t uploadBytes);
  ~CudaHostArena() override;
  const char *kind() const override { return "cuda-ipc"; }

  int device() const { return device_; }
  const CudaAnnouncement &announcement() const { return announcement_; }
  const CudaArenaLayout &layout() const { return layout_; }
  Result<Placement> allocateDownload(uint64_t nbytes) { return layout_.allocateDownload(nbytes); }
  /// Download space for `nbytes` at device address `source` (contiguous,
  /// on this arena's device), and their copy into it queued on `stream`:
  /// one driver call, where a torch copy costs several per hook.
  Result<Placement> copyIntoDownload(uint64_t source, uint64_t nbytes, uint64_t stream);
  void resetForNextJob() { layout_.reset(); }
  /// Device address of a whole region (for the host's view of it).
  std::optional<uint64_t> regionAddress(uint32_t space) const;
  /// Device address of a descriptor's bytes, if they lie inside a region.
  std::optional<uint64_t> resolve(uint32_t space, uint64_t offset, uint64_t nbytes) const;

  /// After the host's copies into the arena on `stream` (a CUstream; 0 is
  /// the legacy default stream), before it sends the message.
  Status recordForWorker(uint64_t stream);
  /// After a worker message arrives, before the host reads it on `stream`:
  /// `stream` waits for the worker's work only if some is still queued.
  Status waitForWorker(uint64_t stream);

private:
  CudaHostArena(CudaArenaLayout layout) : layout_(layout) {}
  CudaArenaLayout layout_;
  CudaAnnouncement announcement_;
  int device_ = -1;
  void *context_ = nullptr; // CUcontext (primary), retained
  uint64_t base_ = 0;       // CUdeviceptr
  void *toWorker_ = nullptr, *toHost_ = nullptr; // CUevent
};

/// Worker side: opens the host's allocation and events once.
class CudaWorkerArena {
public:
  static Result<std::shared_ptr<CudaWorkerArena>> open(const CudaAnnouncement &announcement);
  ~CudaWorkerArena();
  CudaWorkerArena(const CudaWorkerArena &) = delete;
  CudaWorkerArena &operator=(const CudaWorkerArena &) = delete;

  /// The device's ordinal in this process (torch's cuda:N).
  int device() const { return device_; }
  const CudaArenaLayout &layout() const { return layout_; }
  std::optional<uint64_t> regionAddress(uint32_t space) const;
  /// Before the worker reads the host's message: blocks until the host's
  /// copies into the arena are done.
  Status waitForHost();
  /// Before the worker sends a message: records its event on `stream` only
  /// if the stream still has work queued (otherwise there is nothing the
  /// host must wait for).
  Status recordForHost(uint64_t stream);
  /// Queues on `stream` the copy of `nbytes` at device address `source`
  /// (contiguous, on this arena's device) to `offset` of the upload region.
  Status copyIntoUpload(uint64_t offset, uint64_t source, uint64_t nbytes, uint64_t stream);
  /// Unmaps the allocation and drops the events (at retirement; also done
  /// by the destructor). Views of the regions must be gone.
  Status close();

private:
  CudaWorkerArena(CudaArenaLayout layout) : layout_(layout) {}
  CudaArenaLayout layout_;
  int device_ = -1;
  void *context_ = nullptr;
  uint64_t base_ = 0;
  void *toWorker_ = nullptr, *toHost_ = nullptr;
};

} // namespace ivc::runtime

#endif
