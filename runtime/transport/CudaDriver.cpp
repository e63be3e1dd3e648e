//===- CudaDriver.cpp - dlopen("libcuda.so.1") and the function table -----===//
#include "ivc/runtime/transport/CudaDriver.h"

#ifdef IVC_HAVE_CUDA
#include "CudaDriverTable.h"

#include <dlfcn.h>
#include <mutex>
#endif

namespace ivc::runtime::cuda {

#ifndef IVC_HAVE_CUDA

bool builtWithCuda() { return false; }
Status driverStatus() { return Error::invalid("built without CUDA support"); }
Result<int> deviceCount() { return Error::invalid("built without CUDA support"); }
Status probeDriverLibrary(const char *) { return driverStatus(); }

#else

namespace {

// cuda.h maps some names to versioned symbols (cuMemAlloc -> cuMemAlloc_v2);
// expanding the macro before stringizing looks up the versioned one.
#define IVC_CUDA_STR(x) #x
#define IVC_CUDA_SYMBOL(x) IVC_CUDA_STR(x)

Error missingLibrary(const char *soname) {
  return Error::invalid(std::string(soname) + " not found (no NVIDIA driver)");
}

/// Opens `soname` and fills `table`; the handle stays open for the life of
/// the process when `keep` (the driver cannot be unloaded safely).
Status loadTable(const char *soname, DriverTable &table, bool keep) {
  void *lib = ::dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return missingLibrary(soname);
  std::string missing;
#define IVC_CUDA_LOAD(name)                                                                        \
  table.name = reinterpret_cast<decltype(table.name)>(::dlsym(lib, IVC_CUDA_SYMBOL(name)));        \
  if (!table.name && missing.empty())                                                              \
    missing = IVC_CUDA_SYMBOL(name);
  IVC_CUDA_DRIVER_FUNCTIONS(IVC_CUDA_LOAD)
#undef IVC_CUDA_LOAD
  if (!keep || !missing.empty())
    ::dlclose(lib);
  if (!missing.empty())
    return Error::invalid(std::string(soname) + " has no " + missing +
                          " (the NVIDIA driver is too old for this build)");
  return Status::success();
}

struct Loaded {
  DriverTable table;
  Status status;
};

const Loaded &loaded() {
  static Loaded once = [] {
    Loaded l;
    l.status = loadTable("libcuda.so.1", l.table, /*keep=*/true);
    if (!l.status)
      return l;
    CUresult rc = l.table.cuInit(0);
    if (rc == CUDA_ERROR_NO_DEVICE) {
      l.status = Error::invalid("no CUDA device");
      return l;
    }
    l.status = check(l.table, rc, "cuInit");
    if (!l.status)
      return l;
    int count = 0;
    if (l.table.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0)
      l.status = Error::invalid("no CUDA device");
    return l;
  }();
  return once;
}

} // namespace

bool builtWithCuda() { return true; }

Status check(const DriverTable &d, CUresult rc, const char *what) {
  if (rc == CUDA_SUCCESS)
    return Status::success();
  const char *text = nullptr;
  if (!d.cuGetErrorString || d.cuGetErrorString(rc, &text) != CUDA_SUCCESS || !text)
    text = "unknown CUDA error";
  return Error::io(std::string(what) + ": " + text + " (CUresult " + std::to_string(rc) + ")");
}

Result<const DriverTable *> driver() {
  const Loaded &l = loaded();
  if (!l.status)
    return l.status.error();
  return &l.table;
}

Status driverStatus() { return loaded().status; }

Result<int> deviceCount() {
  Result<const DriverTable *> d = driver();
  if (!d)
    return d.takeError();
  int count = 0;
  if (Status s = check(**d, (*d)->cuDeviceGetCount(&count), "cuDeviceGetCount"); !s)
    return s.error();
  return count;
}

Status probeDriverLibrary(const char *soname) {
  DriverTable table;
  return loadTable(soname, table, /*keep=*/false);
}

#endif

} // namespace ivc::runtime::cuda
