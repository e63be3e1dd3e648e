//===- Module.cpp - `ivc._core`: the runtime's C++ side, for Python -------===//
//
// Thin bindings: codec (encode/decode through Convert), channels, memfd
// segments (buffer protocol, so torch.frombuffer maps them without a copy),
// the device arena of the cuda-ipc transport (DLPack capsules, so torch
// views it without a copy), and the host library (pool, workers, watchdog,
// audit). Every wait releases the GIL (WithoutGil.h), so FAST mediator
// threads and the model thread can run while another waits on a channel.
//
//===----------------------------------------------------------------------===//
#include "Analyzer.h"
#include "Convert.h"
#include "DLPack.h"
#include "FastGuard.h"
#include "WithoutGil.h"

#include "ivc/runtime/codec/Codec.h"
#include "ivc/runtime/host/Audit.h"
#include "ivc/runtime/host/Pool.h"
#include "ivc/runtime/host/ResidentMemory.h"
#include "ivc/runtime/transport/Channel.h"
#include "ivc/runtime/transport/CudaArena.h"
#include "ivc/runtime/transport/CudaDriver.h"
#include "ivc/runtime/transport/Segment.h"

#include <pybind11/stl.h>

#include <chrono>
#include <cstring>

namespace py = pybind11;
using namespace ivc::runtime;
using codec::Value;

namespace {

py::object g_channelError, g_closed, g_timeout, g_protocol, g_codecError;

[[noreturn]] void raise(const Error &e) {
  PyObject *type = g_channelError.ptr();
  switch (e.kind) {
  case Error::Closed: type = g_closed.ptr(); break;
  case Error::Timeout: type = g_timeout.ptr(); break;
  case Error::Protocol: type = g_protocol.ptr(); break;
  case Error::Codec: type = g_codecError.ptr(); break;
  case Error::Invalid: type = PyExc_ValueError; break;
  case Error::Io: break;
  }
  PyErr_SetString(type, e.message.c_str());
  throw py::error_already_set();
}

Deadline deadlineOf(int64_t timeoutMs) {
  return timeoutMs < 0 ? Deadline::never() : Deadline::afterMs(timeoutMs);
}

py::tuple frameToPy(Result<Frame> frame) {
  if (!frame)
    raise(frame.error());
  py::list fds;
  for (UniqueFd &fd : frame->fds)
    fds.append(fd.release());
  return py::make_tuple(py::bytes(frame->bytes), fds);
}

void sendOn(Channel &ch, const py::bytes &data, const std::vector<int> &fds, int64_t timeoutMs) {
  std::string_view view = data;
  Status s = python::withoutGil([&] {
    return ch.send({reinterpret_cast<const uint8_t *>(view.data()), view.size()}, fds,
                   deadlineOf(timeoutMs));
  });
  if (!s)
    raise(s.error());
}

py::tuple recvOn(Channel &ch, int64_t timeoutMs) {
  return frameToPy(python::withoutGil([&] { return ch.recv(deadlineOf(timeoutMs)); }));
}

struct PyChannel {
  std::unique_ptr<Channel> ch;
  Channel &get() {
    if (!ch)
      raise(Error::closed("channel is closed"));
    return *ch;
  }
};

/// A pooled worker as Python holds it. release() moves the Worker back
/// into the pool; the handle is then empty and refuses every call.
struct WorkerHandle {
  std::unique_ptr<Worker> w;
  Worker &get() {
    if (!w)
      throw py::value_error("this worker was released or retired");
    return *w;
  }
};

/// Values the host library produced itself (facts): no tensors inside.
py::object valueToPy(const Value &v) {
  py::cpp_function noTensors([](py::args) -> py::object {
    throw py::type_error("unexpected tensor");
  });
  return python::fromValue(v, noTensors);
}

/// An encoded sandbox config dict -> SandboxConfig, or ValueError.
Result<SandboxConfig> configFromBytes(const py::bytes &data) {
  std::string_view view = data;
  Result<Value> v = codec::decode({reinterpret_cast<const uint8_t *>(view.data()), view.size()});
  if (!v)
    raise(v.error());
  Result<SandboxConfig> c = SandboxConfig::fromValue(*v);
  if (!c)
    raise(c.error());
  return c;
}

CudaHostArena &cudaArenaOf(WorkerHandle &h) {
  const std::shared_ptr<CudaHostArena> &a = h.get().cudaArena();
  if (!a)
    throw py::value_error("this worker does not use the cuda-ipc transport");
  return *a;
}

/// A uint8 view of a whole region of a device arena, for torch.from_dlpack;
/// the capsule keeps the arena alive.
template <typename Arena>
py::capsule regionCapsule(const std::shared_ptr<Arena> &arena, uint32_t space) {
  std::optional<uint64_t> address = arena->regionAddress(space);
  if (!address)
    throw py::value_error("no cuda-ipc region " + std::to_string(space));
  return python::makeByteCapsule(*address, *arena->layout().regionBytes(space),
                                 python::DLDeviceKind::CUDA, arena->device(), arena);
}

void check(const Status &s) {
  if (!s)
    raise(s.error());
}

/// A cuda-ipc announcement from the host's message (ProtocolError if malformed).
CudaAnnouncement announcementFromPy(py::handle announcement) {
  py::cpp_function noTensors([](py::args) -> py::object {
    throw py::type_error("a cuda-ipc announcement carries no tensors");
  });
  Result<CudaAnnouncement> a = CudaAnnouncement::fromValue(python::toValue(announcement, noTensors));
  if (!a)
    raise(a.error());
  return std::move(*a);
}

} // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "ivc runtime: codec, channels, shared memory, worker pool (C++)";

  g_channelError = py::reinterpret_steal<py::object>(
      PyErr_NewException("ivc._core.ChannelError", PyExc_OSError, nullptr));
  g_closed = py::reinterpret_steal<py::object>(
      PyErr_NewException("ivc._core.ChannelClosed", g_channelError.ptr(), nullptr));
  g_timeout = py::reinterpret_steal<py::object>(
      PyErr_NewException("ivc._core.ChannelTimeout", g_channelError.ptr(), nullptr));
  g_protocol = py::reinterpret_steal<py::object>(
      PyErr_NewException("ivc._core.ProtocolError", g_channelError.ptr(), nullptr));
  g_codecError = py::reinterpret_steal<py::object>(
      PyErr_NewException("ivc._core.CodecError", PyExc_ValueError, nullptr));
  m.attr("ChannelError") = g_channelError;
  m.attr("ChannelClosed") = g_closed;
  m.attr("ChannelTimeout") = g_timeout;
  m.attr("ProtocolError") = g_protocol;
  m.attr("CodecError") = g_codecError;
  m.attr("MAX_CHANNEL_SPIN_US") = MaxChannelSpinMicros;

  // --- codec -------------------------------------------------------------
  m.def("set_torch_types", &python::setTorchTypes, py::arg("tensor"), py::arg("dtype"),
        py::arg("device"), py::arg("dtypes"));
  m.def(
      "encode",
      [](py::handle obj, py::handle exporter) {
        std::string out = codec::encode(python::toValue(obj, exporter));
        return py::bytes(out);
      },
      py::arg("obj"), py::arg("exporter"),
      "Encodes obj (closed value set); exporter(tensor) places tensor bytes.");
  m.def(
      "decode",
      [](const py::bytes &data, py::handle importer, unsigned maxDepth, uint64_t maxItems) {
        std::string_view view = data;
        codec::Limits limits;
        limits.maxDepth = maxDepth;
        limits.maxItems = maxItems;
        Result<Value> v =
            codec::decode({reinterpret_cast<const uint8_t *>(view.data()), view.size()}, limits);
        if (!v)
          raise(v.error());
        try {
          return python::fromValue(*v, importer);
        } catch (const python::KeysShareAHash &e) {
          raise(Error::codec(e.what()));
        }
      },
      py::arg("data"), py::arg("importer"), py::arg("max_depth") = 32,
      py::arg("max_items") = 1u << 20,
      "Decodes bytes from the peer with bounds checks and limits (no pickle).");

  // --- channels ----------------------------------------------------------
  py::class_<PyChannel, std::shared_ptr<PyChannel>>(m, "Channel")
      .def_static(
          "from_fd",
          [](int fd, bool acceptFds, uint64_t maxFrame) {
            SocketChannel::Options o;
            o.acceptFds = acceptFds;
            o.maxFrameBytes = maxFrame;
            auto p = std::make_shared<PyChannel>();
            p->ch = std::make_unique<SocketChannel>(UniqueFd(fd), o);
            return p;
          },
          py::arg("fd"), py::arg("accept_fds") = false, py::arg("max_frame") = 16u << 20)
      .def(
          "set_spin_us",
          [](PyChannel &c, uint32_t micros) {
            if (auto *socket = dynamic_cast<SocketChannel *>(c.ch.get()))
              socket->setSpinMicros(micros);
          },
          "How long a wait polls before it sleeps (socket channels).")
      .def(
          "send",
          [](PyChannel &c, const py::bytes &data, const std::vector<int> &fds, int64_t timeout) {
            sendOn(c.get(), data, fds, timeout);
          },
          py::arg("data"), py::arg("fds") = std::vector<int>{}, py::arg("timeout_ms") = -1)
      .def(
          "recv", [](PyChannel &c, int64_t timeout) { return recvOn(c.get(), timeout); },
          py::arg("timeout_ms") = -1, "-> (bytes, [fd, ...]); the caller owns the fds")
      .def("close", [](PyChannel &c) {
        if (c.ch)
          c.ch->close();
      });
  m.def(
      "memory_channel_pair",
      [](uint64_t maxFrame, uint32_t spinMicros) {
        MemoryChannelPair pair = makeMemoryChannelPair(maxFrame, spinMicros);
        auto host = std::make_shared<PyChannel>();
        auto med = std::make_shared<PyChannel>();
        host->ch = std::move(pair.host);
        med->ch = std::move(pair.mediator);
        return py::make_tuple(host, med);
      },
      py::arg("max_frame") = 16u << 20, py::arg("spin_us") = 0,
      "-> (host end, mediator end) of an in-process channel");

  // --- shared memory -----------------------------------------------------
  py::class_<Segment, std::shared_ptr<Segment>>(m, "Segment", py::buffer_protocol())
      .def_static(
          "adopt",
          [](int fd, uint64_t size) {
            Result<std::shared_ptr<Segment>> s = Segment::adopt(UniqueFd(fd), size);
            if (!s)
              raise(s.error());
            return *s;
          },
          py::arg("fd"), py::arg("size"), "Worker side: maps a sealed segment from the host.")
      .def_static(
          "create",
          [](uint64_t size) {
            Result<std::shared_ptr<Segment>> s = Segment::create(size);
            if (!s)
              raise(s.error());
            return *s;
          },
          py::arg("size"))
      .def_property_readonly("size", &Segment::size)
      .def_property_readonly("fd", &Segment::fd)
      .def_property_readonly("address",
                             [](const Segment &s) { return reinterpret_cast<uintptr_t>(s.data()); })
      .def_buffer([](Segment &s) {
        return py::buffer_info(s.data(), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<py::ssize_t>(s.size())}, {1});
      });

  // --- the cuda-ipc transport (docs/runtime.md, "Transports") ------------
  m.def("cuda_built", &cuda::builtWithCuda, "Whether this build has the cuda-ipc transport.");
  m.def(
      "cuda_driver_status",
      [] {
        Status s = cuda::driverStatus();
        return py::make_tuple(s.ok(), s.ok() ? std::string("ok") : s.error().message);
      },
      "-> (usable, why not): loads libcuda.so.1 and initializes it, once.");
  m.def(
      "check_cuda_announcement",
      [](py::handle announcement) {
        return valueToPy(announcementFromPy(announcement).toValue());
      },
      "Validates a cuda-ipc announcement (ProtocolError if malformed).");
  py::class_<CudaWorkerArena, std::shared_ptr<CudaWorkerArena>>(m, "CudaWorkerArena")
      .def_static(
          "open",
          [](py::handle announcement) {
            Result<std::shared_ptr<CudaWorkerArena>> w =
                CudaWorkerArena::open(announcementFromPy(announcement));
            if (!w)
              raise(w.error());
            return *w;
          },
          "Worker side, before lockdown: opens the host's device arena and events.")
      .def_property_readonly("device", &CudaWorkerArena::device)
      .def("region", [](const std::shared_ptr<CudaWorkerArena> &a,
                        uint32_t space) { return regionCapsule(a, space); })
      .def("region_bytes",
           [](CudaWorkerArena &a, uint32_t space) { return a.layout().regionBytes(space); })
      .def("wait_for_host", [](CudaWorkerArena &a) { check(a.waitForHost()); })
      .def("record_for_host",
           [](CudaWorkerArena &a, uint64_t stream) { check(a.recordForHost(stream)); })
      .def("copy_to_upload",
           [](CudaWorkerArena &a, uint64_t offset, uint64_t source, uint64_t nbytes,
              uint64_t stream) { check(a.copyIntoUpload(offset, source, nbytes, stream)); })
      .def("close", [](CudaWorkerArena &a) { check(a.close()); });
  m.attr("CUDA_DOWNLOAD_SPACE") = CudaDownloadSpace;
  m.attr("CUDA_UPLOAD_SPACE") = CudaUploadSpace;
  m.def(
      "_dlpack_bytes",
      [](std::shared_ptr<Segment> s) {
        return python::makeByteCapsule(reinterpret_cast<uintptr_t>(s->data()), s->size(),
                                       python::DLDeviceKind::CPU, 0, s);
      },
      "Tests: a DLPack capsule over a segment's (CPU) bytes.");
  m.def("_dlpack_live", &python::liveByteCapsules, "Tests: capsules not yet released.");
  m.def(
      "interrupt_thread",
      [](unsigned long ident, py::object exception) {
        // Raised at the thread's next bytecode; None withdraws one not yet
        // raised.
        return PyThreadState_SetAsyncExc(ident, exception.is_none() ? nullptr : exception.ptr());
      },
      py::arg("ident"), py::arg("exception"),
      "Raises `exception` in the Python thread `ident`; returns how many threads it reached.");
  m.def(
      "resident_bytes",
      [] {
        Result<uint64_t> r = residentBytes();
        if (!r) {
          PyErr_SetString(PyExc_OSError, r.error().message.c_str());
          throw py::error_already_set();
        }
        return *r;
      },
      "Bytes of this process in RAM: what FAST mediators' memory budgets are charged in.");

  // --- workers and the pool ----------------------------------------------
  py::class_<WorkerHandle, std::shared_ptr<WorkerHandle>>(m, "Worker")
      .def_property_readonly("pid", [](WorkerHandle &h) { return h.get().pid(); })
      .def_property_readonly("id", [](WorkerHandle &h) { return h.get().id(); })
      .def_property_readonly("origin", [](WorkerHandle &h) { return h.get().origin(); })
      .def_property_readonly("jobs", [](WorkerHandle &h) { return h.get().jobs; })
      .def_property_readonly("facts",
                             [](WorkerHandle &h) { return valueToPy(h.get().facts()); })
      .def_property_readonly("valid", [](WorkerHandle &h) { return bool(h.w); })
      .def(
          "send",
          [](WorkerHandle &h, const py::bytes &data, const std::vector<int> &fds,
             int64_t timeout) { sendOn(h.get().channel(), data, fds, timeout); },
          py::arg("data"), py::arg("fds") = std::vector<int>{}, py::arg("timeout_ms") = -1)
      .def(
          "recv", [](WorkerHandle &h, int64_t timeout) { return recvOn(h.get().channel(), timeout); },
          py::arg("timeout_ms") = -1)
      .def("exited", [](WorkerHandle &h) { return h.get().exited(); })
      .def("idle_and_alive", [](WorkerHandle &h) { return h.get().idleAndAlive(); })
      .def("kill", [](WorkerHandle &h) { h.get().kill(); })
      // Arena (host side)
      .def("allocate_download",
           [](WorkerHandle &h, uint64_t nbytes) {
             ShmArena &arena = h.get().arena();
             Result<Placement> p = arena.allocateDownload(nbytes);
             if (!p)
               raise(p.error());
             // The third item says a new segment must be announced first.
             return py::make_tuple(p->space, p->offset, arena.hasAnnouncements());
           })
      .def("grow_upload",
           [](WorkerHandle &h, uint64_t nbytes) {
             if (Status s = h.get().arena().growUpload(nbytes); !s)
               raise(s.error());
           })
      .def("take_announcements",
           [](WorkerHandle &h) {
             py::list out;
             for (const Announcement &a : h.get().arena().takeAnnouncements())
               out.append(py::make_tuple(a.space, a.size,
                                         a.role == Announcement::Upload ? "upload" : "download",
                                         a.fd));
             return out;
           })
      .def("reset_arena",
           [](WorkerHandle &h) {
             if (const std::shared_ptr<CudaHostArena> &cuda = h.get().cudaArena())
               cuda->resetForNextJob();
             return h.get().arena().resetForNextJob();
           })
      .def("segment", [](WorkerHandle &h, uint32_t space) { return h.get().arena().segment(space); })
      .def("check_range",
           [](WorkerHandle &h, uint32_t space, uint64_t offset, uint64_t nbytes) {
             return h.get().arena().resolve(space, offset, nbytes).has_value();
           })
      // Device arena (host side, cuda-ipc transport)
      .def_property_readonly("transport",
                             [](WorkerHandle &h) { return h.get().config().transport; })
      .def_property_readonly("cuda_device",
                             [](WorkerHandle &h) { return cudaArenaOf(h).device(); })
      .def("cuda_region",
           [](WorkerHandle &h, uint32_t space) {
             cudaArenaOf(h);
             return regionCapsule(h.get().cudaArena(), space);
           })
      .def("cuda_allocate_download",
           [](WorkerHandle &h, uint64_t nbytes) {
             Result<Placement> p = cudaArenaOf(h).allocateDownload(nbytes);
             if (!p)
               raise(p.error());
             return py::make_tuple(p->space, p->offset);
           })
      .def("cuda_copy_to_download",
           [](WorkerHandle &h, uint64_t source, uint64_t nbytes, uint64_t stream) {
             Result<Placement> p = cudaArenaOf(h).copyIntoDownload(source, nbytes, stream);
             if (!p)
               raise(p.error());
             return py::make_tuple(p->space, p->offset);
           })
      .def("cuda_check_range",
           [](WorkerHandle &h, uint32_t space, uint64_t offset, uint64_t nbytes) {
             return cudaArenaOf(h).resolve(space, offset, nbytes).has_value();
           })
      .def("cuda_record_for_worker",
           [](WorkerHandle &h, uint64_t stream) { check(cudaArenaOf(h).recordForWorker(stream)); })
      .def("cuda_wait_for_worker",
           [](WorkerHandle &h, uint64_t stream) { check(cudaArenaOf(h).waitForWorker(stream)); })
      .def_property_readonly("upload_space",
                             [](WorkerHandle &h) { return h.get().arena().uploadSpace(); });

  py::class_<WorkerPool, std::shared_ptr<WorkerPool>>(m, "Pool")
      .def(py::init([](std::string workerPath, std::vector<std::string> pythonPath, size_t maxIdle,
                       bool useZygote, int stderrFd, size_t maxIdleTotal) {
             WorkerPool::Options o;
             o.worker.workerPath = std::move(workerPath);
             o.worker.pythonPath = std::move(pythonPath);
             o.worker.stderrFd = stderrFd;
             o.maxIdlePerKey = maxIdle;
             o.maxIdleTotal = maxIdleTotal;
             o.useZygote = useZygote;
             return std::make_shared<WorkerPool>(std::move(o));
           }),
           py::arg("worker_path"), py::arg("python_path"), py::arg("max_idle") = 2,
           py::arg("use_zygote") = true, py::arg("stderr_fd") = -1,
           py::arg("max_idle_total") = 8)
      .def(
          "acquire",
          [](WorkerPool &p, py::bytes config, const std::string &tenant) {
            Result<SandboxConfig> c = configFromBytes(config);
            Result<std::unique_ptr<Worker>> w =
                python::withoutGil([&] { return p.acquire(*c, tenant); });
            if (!w)
              raise(w.error());
            auto h = std::make_shared<WorkerHandle>();
            h->w = std::move(*w);
            return h;
          },
          py::arg("config"), py::arg("tenant") = "",
          "config: the encoded SandboxConfig dict (see ivc.SandboxConfig)")
      .def(
          "release",
          [](WorkerPool &p, WorkerHandle &h, bool clean) {
            std::unique_ptr<Worker> w = std::move(h.w);
            python::withoutGil([&] { p.release(std::move(w), clean); });
          },
          py::arg("worker"), py::arg("clean"))
      .def("start_zygote",
           [](WorkerPool &p, py::bytes config) {
             Result<SandboxConfig> c = configFromBytes(config);
             check(python::withoutGil([&] { return p.startZygote(*c); }));
           })
      .def("watch",
           [](WorkerPool &p, WorkerHandle &h, int64_t timeoutMs) {
             Worker &w = h.get();
             return p.watchdog().arm(w.pidfd(), w.pid(), deadlineOf(timeoutMs));
           })
      .def("unwatch", [](WorkerPool &p, uint64_t ticket) { return p.watchdog().disarm(ticket); })
      .def("watchdog_fired", [](WorkerPool &p) { return p.watchdog().fired(); })
      .def("idle", &WorkerPool::idle)
      .def("clear",
           [](WorkerPool &p) {
             python::withoutGil([&] { p.clear(); });
           })
      .def("stats", [](WorkerPool &p) {
        WorkerPool::Stats s = p.stats();
        py::dict d;
        d["spawned"] = s.spawned;
        d["forked"] = s.forked;
        d["reused"] = s.reused;
        d["retired"] = s.retired;
        d["dead_idle"] = s.deadIdle;
        d["evicted"] = s.evicted;
        d["zygote_starts"] = s.zygoteStarts;
        d["zygote_failures"] = s.zygoteFailures;
        d["stderr_dropped"] = p.stderrDropped();
        return d;
      });

  m.def(
      "sandbox_config_check",
      [](py::bytes config) {
        Result<SandboxConfig> c = configFromBytes(config);
        return py::bytes(codec::encode(c->toValue()));
      },
      "Validates an encoded sandbox config; returns it with defaults filled in.");

  m.def(
      "run_audit",
      [](std::string workerPath, std::vector<std::string> pythonPath, int64_t timeoutMs,
         bool allowJit) {
        WorkerOptions o;
        o.workerPath = std::move(workerPath);
        o.pythonPath = std::move(pythonPath);
        AuditReport r = python::withoutGil([&] { return runAudit(o, timeoutMs, allowJit); });
        return py::make_tuple(r.passed, r.lines, r.error);
      },
      py::arg("worker_path"), py::arg("python_path"), py::arg("timeout_ms") = 60000,
      py::arg("allow_jit") = true);
  m.def(
      "bench_memcpy",
      [](size_t nbytes, int repeats) {
        // The baseline of the transport benchmarks: memcpy between two
        // buffers whose pages are already faulted in; best of `repeats`.
        std::vector<char> src(nbytes, 1), dst(nbytes, 0);
        double best = 1e30;
        py::gil_scoped_release nogil;
        for (int i = 0; i < repeats; ++i) {
          auto t0 = std::chrono::steady_clock::now();
          std::memcpy(dst.data(), src.data(), nbytes);
          auto t1 = std::chrono::steady_clock::now();
          asm volatile("" : : "r"(dst.data()) : "memory");
          best = std::min(best, std::chrono::duration<double>(t1 - t0).count());
        }
        return best;
      },
      py::arg("nbytes"), py::arg("repeats") = 20, "Seconds per memcpy of nbytes (best of repeats).");
  m.def("default_worker_path", &defaultWorkerPath);
  python::registerAnalyzer(m);
  python::registerFastGuard(m);
}
