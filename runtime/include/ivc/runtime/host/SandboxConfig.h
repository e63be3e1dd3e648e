//===- SandboxConfig.h - What the host tells a worker about its sandbox ---===//
//
// The runtime-side view of a policy (the analyzer's ivc::Policy maps onto
// it; docs/runtime.md, "Policy"). The host sends it in the worker's job
// before lockdown; workers are pooled per configuration (fingerprint) and
// tenant, so two configurations never share a process.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_RUNTIME_HOST_SANDBOXCONFIG_H
#define IVC_RUNTIME_HOST_SANDBOXCONFIG_H

#include "ivc/runtime/codec/Value.h"
#include "ivc/runtime/support/Result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ivc::runtime {

/// Polling longer than a millisecond only burns CPU: a wake-up costs less.
constexpr uint32_t MaxChannelSpinMicros = 1000;

struct SandboxConfig {
  /// The policy's block flags, enforced by the worker's audit hook (the
  /// seccomp filter refuses file and network access whatever they say).
  struct Block {
    bool fileWrite = true, fileRead = true, subprocess = true, network = true, ctypes = true,
         import = true, exec = true;
  } block;
  /// Top-level modules user code may import (only already-loaded ones can
  /// actually load after lockdown).
  std::vector<std::string> importAllowlist = {"torch", "math"};
  /// Imported before lockdown. The runtime's own modules are always loaded.
  std::vector<std::string> preload = {"torch", "math"};

  uint64_t addressSpaceBytes = 16ull << 30;
  uint64_t cpuSeconds = 600;
  uint64_t openFiles = 64;
  uint64_t fileSizeBytes = 0;

  /// Wall clock for one mediator's whole run in a worker.
  uint64_t traceTimeoutMs = 30000;
  /// Wall clock from spawn (or fork) to READY.
  uint64_t startTimeoutMs = 60000;

  uint64_t downloadBytes = 64ull << 20;
  uint64_t uploadBytes = 16ull << 20;
  uint64_t arenaMaxBytes = 8ull << 30;
  uint64_t maxFrameBytes = 16ull << 20;
  /// How long each side polls its channel before it sleeps, in
  /// microseconds (SocketChannel::Options::spinMicros). A worker's polling
  /// counts against its cpuSeconds.
  uint32_t channelSpinMicros = 50;
  /// torch intra-op threads in the worker (the host passes its own count,
  /// so reductions split the same way in both tiers).
  uint32_t torchThreads = 1;
  /// Retire a worker after this many jobs.
  uint32_t maxJobsPerWorker = 10000;
  bool seccompTrace = false;
  /// The user (and group) a worker started as root runs as once locked
  /// down: nobody. 0 keeps root. cuda-ipc workers keep the host's user.
  uint32_t runAsUid = 65534;
  /// Executable memory for run-time code generation (oneDNN). Off: W^X, and
  /// the worker disables oneDNN (its results may then differ from FAST).
  bool allowJit = true;
  /// How tensors cross to the worker: "shared-memory" (CPU tensors, memfd
  /// arena) or "cuda-ipc" (also GPU tensors, in a device arena on
  /// `cudaDevice`; the worker initializes CUDA before lockdown and its
  /// filter lets it ioctl the driver's descriptors). docs/runtime.md,
  /// "Transports".
  std::string transport = "shared-memory";
  /// Driver ordinal of the device arena (the host's numbering).
  uint32_t cudaDevice = 0;
  bool cudaTransport() const { return transport == "cuda-ipc"; }

  codec::Value toValue() const;
  static Result<SandboxConfig> fromValue(const codec::Value &v);
  /// Stable hash of toValue(): the pool key.
  std::string fingerprint() const;
  /// The zygote key: workers with the same preload list share one zygote.
  std::string preloadKey() const;
};

} // namespace ivc::runtime

#endif
