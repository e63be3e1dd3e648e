//===- DLPack.cpp - A minimal DLPack producer -----------------------------===//
#include "DLPack.h"

#include <atomic>

namespace ivc::runtime::python {

namespace {

// The DLPack 0.x ABI (dlpack.h, DLPACK_VERSION < 80), field for field.
struct DLDevice {
  int32_t device_type;
  int32_t device_id;
};
struct DLDataType {
  uint8_t code; // 1: kDLUInt
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides; // NULL: compact row-major
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

constexpr uint8_t DLUInt = 1;

std::atomic<int64_t> g_live{0};

/// What one capsule owns: the struct torch reads, its shape, and the
/// owner of the memory.
struct Holder {
  DLManagedTensor managed;
  int64_t shape[1];
  std::shared_ptr<void> keepalive;
};

void deleteManaged(DLManagedTensor *self) {
  delete static_cast<Holder *>(self->manager_ctx);
  --g_live;
}

// The capsule's own destructor. A consumer renames the capsule to
// "used_dltensor" and calls the deleter itself when done; only a capsule
// nobody consumed is released here.
void destroyCapsule(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, "dltensor"))
    return;
  auto *managed = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, "dltensor"));
  if (managed && managed->deleter)
    managed->deleter(managed);
}

} // namespace

pybind11::capsule makeByteCapsule(uint64_t address, uint64_t nbytes, DLDeviceKind device,
                                  int32_t deviceId, std::shared_ptr<void> keepalive) {
  auto *h = new Holder();
  h->shape[0] = static_cast<int64_t>(nbytes);
  h->keepalive = std::move(keepalive);
  DLTensor &t = h->managed.dl_tensor;
  t.data = reinterpret_cast<void *>(static_cast<uintptr_t>(address));
  t.device = {static_cast<int32_t>(device), deviceId};
  t.ndim = 1;
  t.dtype = {DLUInt, 8, 1};
  t.shape = h->shape;
  t.strides = nullptr;
  t.byte_offset = 0;
  h->managed.manager_ctx = h;
  h->managed.deleter = deleteManaged;
  ++g_live;
  PyObject *capsule = PyCapsule_New(&h->managed, "dltensor", destroyCapsule);
  if (!capsule) {
    deleteManaged(&h->managed);
    throw pybind11::error_already_set();
  }
  return pybind11::reinterpret_steal<pybind11::capsule>(capsule);
}

int64_t liveByteCapsules() { return g_live.load(); }

} // namespace ivc::runtime::python
