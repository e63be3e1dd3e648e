"""How tensor bytes move between the host and a mediator, per transport.

A message carries tensor descriptors (dtype, shape, space, offset, nbytes);
these classes make them (export) and resolve them (import):

  InProcessTensors     FAST: a handle table; tensors move by reference.
  HostArenaTensors     host side of the shared-memory arena of one worker:
                       deliveries are copied once into a download segment;
                       what the worker sends is read in place (bounds-checked)
                       and copied once by whoever consumes it.
  WorkerArenaTensors   worker side: deliveries are viewed in place (no copy);
                       what it sends is copied once into the upload segment,
                       unless it already lies in a download segment (an
                       in-place update of a delivered activation).

  HostCudaTensors      the cuda-ipc transport, host side: tensors on a GPU go
                       through the worker's device arena (one allocation
                       exported with cuIpcGetMemHandle, viewed by torch
                       through a DLPack capsule) exactly as CPU tensors go
                       through the shared-memory arena, which it still uses
                       for CPU tensors; interprocess events order the two
                       processes' streams.
  WorkerCudaTensors    its worker side.

Nothing outside this module knows which transport carries a tensor.
"""

import torch

from . import _core
from ._grads import Activation

IN_PROCESS_SPACE = 0xFFFFFFFF
ALIGN = 64
# Tensors one worker message may name (saves of every layer's activations
# fit many times over; a million descriptors of the same 4 bytes took the
# host seconds to view).
MAX_MESSAGE_TENSORS = 1 << 16

DTYPES = {name: getattr(torch, name) for name in (
    "float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8",
    "bool", "complex64", "complex128")}
_NAMES = {dtype: name for name, dtype in DTYPES.items()}
ITEMSIZE = {name: torch.empty((), dtype=dtype).element_size() for name, dtype in DTYPES.items()}

_core.set_torch_types(torch.Tensor, torch.dtype, torch.device, DTYPES)


def dtype_name(dtype):
    try:
        return _NAMES[dtype]
    except KeyError:
        raise TypeError(f"tensors of dtype {dtype} cannot cross the ivc channel") from None


def _nbytes(t):
    return t.numel() * t.element_size()


# The codec's limit on a tensor's dimensions (codec/Decode.cpp, maxNdim).
MAX_DIMS = 32


def _check_exportable(t):
    """Tensors cross as their bytes, in one layout, in both tiers alike. A
    subclass is refused before anything is read from it: its
    __torch_function__ would run user code in ivc's own steps. (A FAST
    mediator's activations are ivc's own Activation, which runs none.)"""
    if type(t) is not torch.Tensor and type(t) is not torch.nn.Parameter and \
            type(t) is not Activation:
        raise TypeError(f"a tensor of type '{type(t).__qualname__}' cannot cross the ivc "
                        "channel (torch.Tensor only)")
    if t.dim() > MAX_DIMS:
        raise TypeError(f"a tensor of {t.dim()} dimensions cannot cross the ivc channel "
                        f"(at most {MAX_DIMS})")
    if t.layout != torch.strided or t.is_meta:
        what = "meta" if t.is_meta else str(t.layout).replace("torch.", "")
        raise TypeError(f"a {what} tensor cannot cross the ivc channel (dense tensors only: "
                        "convert it with .to_dense())")


def _check_cpu(t):
    if not t.is_cpu:
        raise TypeError(f"this transport moves CPU tensors only, not {t.device}")


_STRIDES = {}  # shape -> contiguous strides, for the shapes a job's hooks repeat


def _contiguous_strides(shape):
    strides = _STRIDES.get(shape)
    if strides is None:
        step, out = 1, []
        for size in reversed(shape):
            out.append(step)
            step *= size
        strides = tuple(reversed(out))
        if len(_STRIDES) < 4096:
            _STRIDES[shape] = strides
    return strides


def _view(base, dtype, shape, offset):
    """A tensor of `dtype`/`shape` at byte `offset` of `base` (a dict of 1-D
    views of one segment, by dtype, each starting its storage). The offset
    is aligned to the item size and its bytes are in bounds (both checked
    for what a worker sends: the codec checks that a shape holds its
    nbytes). One as_strided, as on a hook's path narrow+view costs three
    times as much."""
    typed = base.get(dtype)
    if typed is None:
        typed = base[dtype] = base["uint8"].view(DTYPES[dtype])
    return typed.as_strided(shape, _contiguous_strides(shape), offset // ITEMSIZE[dtype])


# A worker's deliveries are views of one segment or region, and views share
# their base's version counter: an in-place update of one would look like an
# update of every delivery. The original .data getter (a worker wraps
# Tensor.data, see watch_raw_access) gives the same bytes a counter of their
# own, so a mediator reports exactly what it changed.
_own_counter = torch._C._TensorBase.data.__get__


def _delivery(base, dtype, shape, offset):
    return _own_counter(_view(base, dtype, shape, offset))


def _empty(dtype, shape):
    return torch.empty(shape, dtype=DTYPES[dtype])


class InProcessTensors:
    """Tensors by reference, for a mediator in a host thread. One object is
    shared by both ends; each handle is used once."""

    track_mutations = False  # the mediator holds the activation itself

    def __init__(self):
        self._table = {}
        self._next = 0

    def export(self, t):
        _check_exportable(t)
        handle = self._next
        self._next += 1
        self._table[handle] = t
        return (dtype_name(t.dtype), tuple(t.shape), IN_PROCESS_SPACE, handle, _nbytes(t))

    def import_(self, dtype, shape, space, offset, nbytes):
        if space != IN_PROCESS_SPACE:
            raise ValueError("in-process transport got a shared-memory descriptor")
        return self._table.pop(offset)

    def clear(self):
        self._table.clear()


class _Bases:
    """uint8 tensors over whole segments, made once per segment."""

    def __init__(self):
        self._by_space = {}

    def add(self, space, segment):
        self._by_space[space] = {"uint8": torch.frombuffer(segment, dtype=torch.uint8)}

    def get(self, space):
        return self._by_space.get(space)

    def drop(self, space):
        self._by_space.pop(space, None)

    def items(self):
        return self._by_space.items()


class HostArenaTensors:
    """Host side of one worker's shared-memory arena."""

    def __init__(self, worker, max_message_bytes):
        self._worker = worker
        self._bases = _Bases()
        self.new_segments = False  # set when an export made a segment
        # The tensor bytes one worker message may reference: the host copies
        # what it keeps, so a message naming the same range a million times
        # must not cost a million copies.
        self._max_message_bytes = max_message_bytes
        self._message_bytes = 0
        self._message_tensors = 0

    def begin_message(self):
        self._message_bytes = 0
        self._message_tensors = 0

    def _count(self, nbytes):
        """Charges one descriptor of the message: each costs the host a view
        (and what it keeps of it, a copy), however few bytes it names."""
        self._message_tensors += 1
        if self._message_tensors > MAX_MESSAGE_TENSORS:
            raise _core.ProtocolError(
                f"a message names more than {MAX_MESSAGE_TENSORS} tensors")
        self._message_bytes += nbytes
        if self._message_bytes > self._max_message_bytes:
            raise _core.ProtocolError(
                f"a message references more than {self._max_message_bytes} tensor bytes")

    def _base(self, space):
        base = self._bases.get(space)
        if base is None:
            segment = self._worker.segment(space)
            if segment is None:
                return None
            self._bases.add(space, segment)
            base = self._bases.get(space)
        return base

    def export(self, t):
        _check_exportable(t)
        return self._export(t)

    def _export(self, t):
        _check_cpu(t)
        name = dtype_name(t.dtype)
        shape = tuple(t.shape)
        n = _nbytes(t)
        if n == 0:
            return (name, shape, 0, 0, 0)
        space, offset, fresh = self._worker.allocate_download(n)
        self.new_segments |= fresh
        _view(self._base(space), name, shape, offset).copy_(
            t.detach() if t.requires_grad else t)
        return (name, shape, space, offset, n)

    def import_(self, dtype, shape, space, offset, nbytes):
        """A view of bytes the worker wrote: valid until the host replies.
        The descriptor is hostile input: the range must lie inside a segment
        of this worker's arena and be aligned for the dtype."""
        self._count(nbytes)
        if nbytes == 0:
            return _empty(dtype, shape)
        if offset % ITEMSIZE[dtype] or not self._worker.check_range(space, offset, nbytes):
            raise _core.ProtocolError(
                f"tensor descriptor out of bounds: space {space}, offset {offset}, {nbytes} bytes")
        base = self._base(space)
        if base is None:
            raise _core.ProtocolError(f"tensor descriptor names unknown space {space}")
        t = _view(base, dtype, shape, offset)
        if dtype == "bool":
            # Any byte may arrive; torch's bool kernels assume 0 or 1.
            t = t.view(torch.uint8) != 0
        return t

    def forget(self, spaces):
        for s in spaces:
            self._bases.drop(s)


def byte_span(t):
    """[first, last) bytes a tensor's elements occupy (non-negative strides)."""
    if t.numel() == 0:
        return None
    extent = sum((size - 1) * stride for size, stride in zip(t.shape, t.stride()) if size > 0)
    start = t.data_ptr()
    return start, start + (extent + 1) * t.element_size()


# Writes that bypass torch's version counter: a numpy view (.numpy(),
# np.asarray), .data (a tensor with its own counter), the storage, DLPack.
# In a worker, these entry points record the bytes they expose; a delivered
# activation overlapping them is carried back with every later message, so
# such writes reach the model as they would in process.
_RAW_ACCESS = ("numpy", "__array__", "untyped_storage", "storage", "_storage", "__dlpack__")


EVERYTHING = (0, 1 << 64)


def watch_raw_access(exposed):
    """Worker only (trusted set-up, before lockdown)."""
    cls = torch.Tensor

    def record(t):
        if exposed and exposed[0] is EVERYTHING:
            return
        span = byte_span(t)
        # Device pointers share the address space with host pointers (UVA),
        # so CPU and CUDA spans never collide.
        if span is not None and (t.is_cpu or t.is_cuda):
            exposed.append(span)
            if len(exposed) > 256:  # a loop over .data: assume all of it
                exposed[:] = [EVERYTHING]

    def wrap(name):
        original = getattr(cls, name)

        def method(self, *args, **kwargs):
            record(self)
            return original(self, *args, **kwargs)
        method.__name__ = name
        method.__doc__ = original.__doc__
        setattr(cls, name, method)

    for name in _RAW_ACCESS:
        if hasattr(cls, name):
            wrap(name)
    data = torch._C._TensorBase.data

    def get_data(self):
        record(self)
        return data.__get__(self)

    cls.data = property(get_data, data.__set__, doc=data.__doc__)


class NeedSpace(Exception):
    def __init__(self, nbytes):
        super().__init__(nbytes)
        self.nbytes = nbytes


class WorkerArenaTensors:
    """Worker side of the arena."""

    track_mutations = True

    def __init__(self):
        self.exposed = []    # byte spans raw access exposed in this job
        self._segments = {}  # space -> Segment (keeps the mapping alive)
        self._bases = _Bases()
        self._upload = None  # space
        self._cursor = 0
        self._overflow = 0

    def adopt(self, announcements, fds):
        """("segments", [(space, size, role), ...], drop) with their fds."""
        if len(announcements) != len(fds):
            raise ValueError("segment announcement and descriptors do not match")
        for (space, size, role), fd in zip(announcements, fds):
            seg = _core.Segment.adopt(fd, size)
            self._segments[space] = seg
            self._bases.add(space, seg)
            if role == "upload":
                if self._upload is not None and self._upload != space:
                    self.drop([self._upload])
                self._upload = space

    def drop(self, spaces):
        for s in spaces:
            self._segments.pop(s, None)
            self._bases.drop(s)

    def fds(self):
        return [seg.fd for seg in self._segments.values()]

    def begin_message(self):
        self._cursor = 0
        self._overflow = 0

    def needed(self):
        """Bytes the last message needed in upload space, if it did not fit."""
        return self._cursor + self._overflow if self._overflow else 0

    def _locate(self, t, n):
        ptr = t.data_ptr()
        for space, seg in self._segments.items():
            if space == self._upload:
                continue
            start = seg.address
            if start <= ptr and ptr + n <= start + seg.size:
                return space, ptr - start
        return None

    def export(self, t):
        _check_exportable(t)
        return self._export(t)

    def _export(self, t):
        _check_cpu(t)
        t = t.detach()
        name = dtype_name(t.dtype)
        shape = tuple(t.shape)
        n = _nbytes(t)
        if n == 0:
            return (name, shape, 0, 0, 0)
        if t.is_contiguous():
            where = self._locate(t, n)
            if where is not None:
                return (name, shape, where[0], where[1], n)
        offset = -(-self._cursor // ALIGN) * ALIGN
        upload = self._segments[self._upload]
        if offset + n > upload.size:
            self._overflow += n + ALIGN
            return (name, shape, self._upload, 0, n)
        _view(self._bases.get(self._upload), name, shape, offset).copy_(t)
        self._cursor = offset + n
        return (name, shape, self._upload, offset, n)

    def import_(self, dtype, shape, space, offset, nbytes):
        if nbytes == 0:
            return _empty(dtype, shape)
        base = self._bases.get(space)
        if base is None:
            raise ValueError(f"unknown segment {space}")
        return _delivery(base, dtype, shape, offset)


# --- cuda-ipc -------------------------------------------------------------
# Tensors on a GPU cross through one device allocation per worker, laid out
# like the shared-memory arena: a download region (bump-allocated by the
# host for the whole job) and an upload region (the worker's current
# message). Ordering (CudaArena.cpp): the host records an interprocess event
# on its current stream before every message it sends, and the worker waits
# for it on the CPU when the message arrives; the worker records its event
# only when its stream has work queued, and the host's stream then waits
# for it.

CUDA_DOWNLOAD = _core.CUDA_DOWNLOAD_SPACE
CUDA_UPLOAD = _core.CUDA_UPLOAD_SPACE
CUDA_SPACES = (CUDA_DOWNLOAD, CUDA_UPLOAD)


# torch.cuda.current_stream() builds a Stream object each time (6 us per call
# on the H100 VM, three calls a hook); the raw accessor, where this torch has
# it, returns just the handle.
_raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)


def _stream(device):
    if _raw_stream is not None:
        return _raw_stream(device.index)
    return torch.cuda.current_stream(device).cuda_stream


def _region_base(capsule):
    """{"uint8": tensor} over a whole region, imported without a copy."""
    return {"uint8": torch.utils.dlpack.from_dlpack(capsule)}


class HostCudaTensors(HostArenaTensors):
    """Host side of the cuda-ipc transport (CPU tensors: the shared-memory
    arena, as HostArenaTensors)."""

    def __init__(self, worker, max_message_bytes):
        super().__init__(worker, max_message_bytes)
        self.device = torch.device("cuda", worker.cuda_device)
        self._cuda_bases = {}

    def _cuda_base(self, space):
        base = self._cuda_bases.get(space)
        if base is None:
            base = self._cuda_bases[space] = _region_base(self._worker.cuda_region(space))
        return base

    def _export(self, t):  # export() checked it
        if not t.is_cuda:
            return super()._export(t)
        name = dtype_name(t.dtype)
        shape = tuple(t.shape)
        n = _nbytes(t)
        if n == 0:
            return (name, shape, CUDA_DOWNLOAD, 0, 0)
        if t.device == self.device and t.is_contiguous():
            space, offset = self._worker.cuda_copy_to_download(t.data_ptr(), n,
                                                               _stream(self.device))
        else:  # torch gathers strided elements, or copies from another device
            space, offset = self._worker.cuda_allocate_download(n)
            _view(self._cuda_base(space), name, shape, offset).copy_(t.detach())
        return (name, shape, space, offset, n)

    def before_send(self):
        """The copies above, and the host's reads of the worker's last
        message, happen before anything the worker does next."""
        self._worker.cuda_record_for_worker(_stream(self.device))

    def begin_message(self):
        super().begin_message()
        self._worker.cuda_wait_for_worker(_stream(self.device))

    def import_(self, dtype, shape, space, offset, nbytes):
        if space not in CUDA_SPACES:
            return super().import_(dtype, shape, space, offset, nbytes)
        self._count(nbytes)
        if nbytes == 0:
            return torch.empty(shape, dtype=DTYPES[dtype], device=self.device)
        if offset % ITEMSIZE[dtype] or not self._worker.cuda_check_range(space, offset, nbytes):
            raise _core.ProtocolError(
                f"cuda tensor descriptor out of bounds: space {space}, offset {offset}, "
                f"{nbytes} bytes")
        t = _view(self._cuda_base(space), dtype, shape, offset)
        if dtype == "bool":
            t = t.view(torch.uint8) != 0
        return t


class WorkerCudaTensors(WorkerArenaTensors):
    """Worker side of the cuda-ipc transport. `arena`: the opened
    _core.CudaWorkerArena (opened before lockdown, kept until exit)."""

    def __init__(self, arena):
        super().__init__()
        self.cuda = arena
        self.device = torch.device("cuda", arena.device)
        self._cuda_bases = {s: _region_base(arena.region(s)) for s in CUDA_SPACES}
        self._download = self._cuda_bases[CUDA_DOWNLOAD]["uint8"]
        self._upload_bytes = arena.region_bytes(CUDA_UPLOAD)
        self._cuda_cursor = 0

    def begin_message(self):
        super().begin_message()
        self._cuda_cursor = 0

    def _in_download(self, t, n):
        start = self._download.data_ptr()
        ptr = t.data_ptr()
        if t.device == self.device and start <= ptr and ptr + n <= start + self._download.numel():
            return ptr - start
        return None

    def _export(self, t):  # export() checked it
        if not t.is_cuda:
            return super()._export(t)
        t = t.detach()
        name = dtype_name(t.dtype)
        shape = tuple(t.shape)
        n = _nbytes(t)
        if n == 0:
            return (name, shape, CUDA_DOWNLOAD, 0, 0)
        if t.is_contiguous():
            offset = self._in_download(t, n)
            if offset is not None:  # an in-place update of a delivery
                return (name, shape, CUDA_DOWNLOAD, offset, n)
        offset = -(-self._cuda_cursor // ALIGN) * ALIGN
        if offset + n > self._upload_bytes:
            raise ValueError(f"this message needs more than the {self._upload_bytes} bytes of the "
                             "cuda-ipc upload region; raise SandboxConfig.upload_bytes")
        if t.device == self.device and t.is_contiguous():
            self.cuda.copy_to_upload(offset, t.data_ptr(), n, _stream(self.device))
        else:
            _view(self._cuda_bases[CUDA_UPLOAD], name, shape, offset).copy_(t)
        self._cuda_cursor = offset + n
        return (name, shape, CUDA_UPLOAD, offset, n)

    def import_(self, dtype, shape, space, offset, nbytes):
        if space not in CUDA_SPACES:
            return super().import_(dtype, shape, space, offset, nbytes)
        if nbytes == 0:
            return torch.empty(shape, dtype=DTYPES[dtype], device=self.device)
        return _delivery(self._cuda_bases[space], dtype, shape, offset)

    def before_send(self):
        self.cuda.record_for_host(_stream(self.device))

    def after_recv(self):
        self.cuda.wait_for_host()
