//===- CudaAnnouncement.cpp - The cuda-ipc part of a worker's job ---------===//
#include "ivc/runtime/transport/CudaArena.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace ivc::runtime {

using codec::Kind;
using codec::Value;

namespace {

constexpr const char *Keys[] = {"pci_bus_id", "memory", "to_worker", "to_host", "download",
                                "upload"};

Value handleValue(const CudaIpcHandle &h) {
  return Value::bytes(std::string(reinterpret_cast<const char *>(h.data()), h.size()));
}

Error bad(const std::string &what) { return Error::protocol("cuda-ipc announcement: " + what); }

Result<CudaIpcHandle> handleFrom(const Value *v, const char *key) {
  if (!v || !v->is(Kind::Bytes) || v->asString().size() != CudaIpcHandleBytes)
    return bad(std::string("'") + key + "' must be " + std::to_string(CudaIpcHandleBytes) +
               " bytes");
  CudaIpcHandle h;
  std::memcpy(h.data(), v->asString().data(), h.size());
  return h;
}

Result<uint64_t> sizeFrom(const Value *v, const char *key) {
  if (!v || !v->is(Kind::Int) || v->asInt() <= 0)
    return bad(std::string("'") + key + "' must be a positive int");
  return static_cast<uint64_t>(v->asInt());
}

// What cuDeviceGetPCIBusId prints: domain:bus:device.function in hex,
// e.g. "0000:3b:00.0" (the domain may be longer than 4 digits).
bool plausibleBusId(const std::string &s) {
  if (s.size() < 7 || s.size() > 32)
    return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) || c == ':' || c == '.'; });
}

} // namespace

Value CudaAnnouncement::toValue() const {
  Value v = Value::dict();
  v.set("pci_bus_id", Value::str(pciBusId));
  v.set("memory", handleValue(memory));
  v.set("to_worker", handleValue(toWorker));
  v.set("to_host", handleValue(toHost));
  v.set("download", Value::integer(static_cast<int64_t>(downloadBytes)));
  v.set("upload", Value::integer(static_cast<int64_t>(uploadBytes)));
  return v;
}

Result<CudaAnnouncement> CudaAnnouncement::fromValue(const Value &v) {
  if (!v.is(Kind::Dict))
    return bad("must be a dict");
  const std::vector<Value> &kv = v.items();
  if (kv.size() != 2 * std::size(Keys))
    return bad("must have exactly the keys pci_bus_id, memory, to_worker, to_host, download, "
               "upload");
  for (size_t i = 0; i < kv.size(); i += 2)
    if (!kv[i].is(Kind::Str) ||
        std::find(std::begin(Keys), std::end(Keys), kv[i].asString()) == std::end(Keys))
      return bad("unknown key " + kv[i].repr());
  CudaAnnouncement a;
  const Value *bus = v.get("pci_bus_id");
  if (!bus || !bus->is(Kind::Str) || !plausibleBusId(bus->asString()))
    return bad("'pci_bus_id' must look like 0000:3b:00.0");
  a.pciBusId = bus->asString();
  Result<CudaIpcHandle> memory = handleFrom(v.get("memory"), "memory");
  if (!memory)
    return memory.takeError();
  Result<CudaIpcHandle> toWorker = handleFrom(v.get("to_worker"), "to_worker");
  if (!toWorker)
    return toWorker.takeError();
  Result<CudaIpcHandle> toHost = handleFrom(v.get("to_host"), "to_host");
  if (!toHost)
    return toHost.takeError();
  Result<uint64_t> download = sizeFrom(v.get("download"), "download");
  if (!download)
    return download.takeError();
  Result<uint64_t> upload = sizeFrom(v.get("upload"), "upload");
  if (!upload)
    return upload.takeError();
  Result<CudaArenaLayout> layout = CudaArenaLayout::make(*download, *upload);
  if (!layout || layout->downloadBytes() != *download || layout->uploadBytes() != *upload)
    return bad("region sizes must be positive multiples of " +
               std::to_string(CudaArenaLayout::Alignment) + " below 2^48");
  a.memory = *memory;
  a.toWorker = *toWorker;
  a.toHost = *toHost;
  a.downloadBytes = *download;
  a.uploadBytes = *upload;
  return a;
}

} // namespace ivc::runtime
