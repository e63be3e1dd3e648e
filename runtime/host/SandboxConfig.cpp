//===- SandboxConfig.cpp - To and from codec values -----------------------===//
#include "ivc/runtime/host/SandboxConfig.h"

#include "ivc/runtime/codec/Codec.h"
#include "ivc/runtime/transport/TensorSpace.h"

#include <cstdio>

namespace ivc::runtime {

using codec::Kind;
using codec::Value;

namespace {

Value strings(const std::vector<std::string> &v) {
  std::vector<Value> items;
  for (const std::string &s : v)
    items.push_back(Value::str(s));
  return Value::list(std::move(items));
}

Value u64(uint64_t v) { return Value::integer(static_cast<int64_t>(v)); }

struct Reader {
  const Value &root;
  std::string error;

  bool flag(const Value *dict, const char *key, bool &out) {
    const Value *v = dict ? dict->get(key) : nullptr;
    if (!v)
      return true;
    if (!v->is(Kind::Bool))
      return fail(key, "a bool");
    out = v->asBool();
    return true;
  }
  bool number(const Value *dict, const char *key, uint64_t &out) {
    const Value *v = dict ? dict->get(key) : nullptr;
    if (!v)
      return true;
    if (!v->is(Kind::Int) || v->asInt() < 0)
      return fail(key, "a non-negative int");
    out = static_cast<uint64_t>(v->asInt());
    return true;
  }
  bool list(const char *key, std::vector<std::string> &out) {
    const Value *v = root.get(key);
    if (!v)
      return true;
    if (!v->is(Kind::List))
      return fail(key, "a list of str");
    out.clear();
    for (const Value &item : v->items()) {
      if (!item.is(Kind::Str))
        return fail(key, "a list of str");
      out.push_back(item.asString());
    }
    return true;
  }
  bool string(const char *key, std::string &out) {
    const Value *v = root.get(key);
    if (!v)
      return true;
    if (!v->is(Kind::Str))
      return fail(key, "a str");
    out = v->asString();
    return true;
  }
  bool fail(const char *key, const char *what) {
    error = std::string("sandbox config: '") + key + "' must be " + what;
    return false;
  }
};

} // namespace

Value SandboxConfig::toValue() const {
  Value blockV = Value::dict();
  blockV.set("file_write", Value::boolean(block.fileWrite));
  blockV.set("file_read", Value::boolean(block.fileRead));
  blockV.set("subprocess", Value::boolean(block.subprocess));
  blockV.set("network", Value::boolean(block.network));
  blockV.set("ctypes", Value::boolean(block.ctypes));
  blockV.set("import", Value::boolean(block.import));
  blockV.set("exec", Value::boolean(block.exec));
  Value limits = Value::dict();
  limits.set("address_space", u64(addressSpaceBytes));
  limits.set("cpu_seconds", u64(cpuSeconds));
  limits.set("open_files", u64(openFiles));
  limits.set("file_size", u64(fileSizeBytes));
  Value arena = Value::dict();
  arena.set("download", u64(downloadBytes));
  arena.set("upload", u64(uploadBytes));
  arena.set("max", u64(arenaMaxBytes));
  Value v = Value::dict();
  v.set("block", std::move(blockV));
  v.set("import_allowlist", strings(importAllowlist));
  v.set("preload", strings(preload));
  v.set("rlimits", std::move(limits));
  v.set("arena", std::move(arena));
  v.set("trace_timeout_ms", u64(traceTimeoutMs));
  v.set("start_timeout_ms", u64(startTimeoutMs));
  v.set("max_frame_bytes", u64(maxFrameBytes));
  v.set("channel_spin_us", u64(channelSpinMicros));
  v.set("torch_threads", u64(torchThreads));
  v.set("max_jobs", u64(maxJobsPerWorker));
  v.set("seccomp_trace", Value::boolean(seccompTrace));
  v.set("allow_jit", Value::boolean(allowJit));
  v.set("run_as_uid", u64(runAsUid));
  v.set("transport", Value::str(transport));
  v.set("cuda_device", u64(cudaDevice));
  return v;
}

Result<SandboxConfig> SandboxConfig::fromValue(const Value &v) {
  if (!v.is(Kind::Dict))
    return Error::invalid("sandbox config must be a dict");
  SandboxConfig c;
  Reader r{v, {}};
  const Value *block = v.get("block");
  const Value *limits = v.get("rlimits");
  const Value *arena = v.get("arena");
  uint64_t threads = c.torchThreads, maxJobs = c.maxJobsPerWorker, cudaDevice = c.cudaDevice;
  uint64_t spin = c.channelSpinMicros, uid = c.runAsUid;
  bool ok = r.flag(block, "file_write", c.block.fileWrite) &&
            r.flag(block, "file_read", c.block.fileRead) &&
            r.flag(block, "subprocess", c.block.subprocess) &&
            r.flag(block, "network", c.block.network) && r.flag(block, "ctypes", c.block.ctypes) &&
            r.flag(block, "import", c.block.import) && r.flag(block, "exec", c.block.exec) &&
            r.list("import_allowlist", c.importAllowlist) && r.list("preload", c.preload) &&
            r.number(limits, "address_space", c.addressSpaceBytes) &&
            r.number(limits, "cpu_seconds", c.cpuSeconds) &&
            r.number(limits, "open_files", c.openFiles) &&
            r.number(limits, "file_size", c.fileSizeBytes) &&
            r.number(arena, "download", c.downloadBytes) &&
            r.number(arena, "upload", c.uploadBytes) && r.number(arena, "max", c.arenaMaxBytes) &&
            r.number(&v, "trace_timeout_ms", c.traceTimeoutMs) &&
            r.number(&v, "start_timeout_ms", c.startTimeoutMs) &&
            r.number(&v, "max_frame_bytes", c.maxFrameBytes) &&
            r.number(&v, "channel_spin_us", spin) &&
            r.number(&v, "torch_threads", threads) && r.number(&v, "max_jobs", maxJobs) &&
            r.flag(&v, "seccomp_trace", c.seccompTrace) && r.flag(&v, "allow_jit", c.allowJit) &&
            r.string("transport", c.transport) && r.number(&v, "cuda_device", cudaDevice) &&
            r.number(&v, "run_as_uid", uid);
  if (!ok)
    return Error::invalid(r.error);
  if (block && !block->is(Kind::Dict))
    return Error::invalid("sandbox config: 'block' must be a dict");
  if (threads == 0 || threads > 1024)
    return Error::invalid("sandbox config: 'torch_threads' must be in 1..1024");
  if (c.openFiles < 16)
    return Error::invalid("sandbox config: 'open_files' must be at least 16");
  if (!ShmArena::Options{c.downloadBytes, c.uploadBytes, c.arenaMaxBytes}.consistent())
    return Error::invalid("sandbox config: the arena's 'download' and 'upload' must be at "
                          "least 1 byte each and fit in its 'max' together");
  if (c.maxFrameBytes < 4096)
    return Error::invalid("sandbox config: 'max_frame_bytes' must be at least 4096");
  if (c.transport != "shared-memory" && c.transport != "cuda-ipc")
    return Error::invalid("sandbox config: 'transport' must be 'shared-memory' or 'cuda-ipc'");
  if (cudaDevice > 1024)
    return Error::invalid("sandbox config: 'cuda_device' must be in 0..1024");
  if (spin > MaxChannelSpinMicros)
    return Error::invalid("sandbox config: 'channel_spin_us' must be at most " +
                          std::to_string(MaxChannelSpinMicros));
  if (uid >= UINT32_MAX) // (uid_t)-1 means "unchanged" to setresuid
    return Error::invalid("sandbox config: 'run_as_uid' must be below 4294967295");
  c.channelSpinMicros = static_cast<uint32_t>(spin);
  c.runAsUid = static_cast<uint32_t>(uid);
  c.cudaDevice = static_cast<uint32_t>(cudaDevice);
  c.torchThreads = static_cast<uint32_t>(threads);
  c.maxJobsPerWorker = static_cast<uint32_t>(maxJobs);
  return c;
}

static std::string fnv1a(const std::string &bytes) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string SandboxConfig::fingerprint() const { return fnv1a(codec::encode(toValue())); }

std::string SandboxConfig::preloadKey() const { return fnv1a(codec::encode(strings(preload))); }

} // namespace ivc::runtime
