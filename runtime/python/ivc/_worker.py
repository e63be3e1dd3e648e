"""ivc-worker's Python side (the C++ main calls main()).

A worker: receive the job (sandbox config and shared-memory segments, and
with the cuda-ipc transport the device arena's announcement) from the host,
import the preload list, warm up torch's threads (and CUDA), lock down
(_ivc_worker.lockdown: audit hook, rlimits, no_new_privs, seccomp), say
READY, then run mediators one at a time until the channel closes. Nothing
from a job runs before lockdown; everything this module needs is imported
before it.

A zygote: import the preload list, then fork a worker per request. The
child continues in serve() and locks itself down like any worker.
"""

import importlib
import os
import sys

import _ivc_worker

from . import _core, _mediator, _protocol, _tensors  # noqa: F401  (preloaded here)


def _send(channel, msg, fds=()):
    channel.send(_core.encode(msg, _protocol.no_tensors), list(fds))


def _recv(channel):
    data, fds = channel.recv()
    return _core.decode(data, _protocol.no_tensors), fds


def _preload(names):
    for name in names:
        importlib.import_module(name)


# The channel's descriptor. Not a secret: user code can write to it anyway
# (the host treats everything that arrives as hostile); tests use it.
CHANNEL_FD = None


def _open_fds():
    return {int(n) for n in os.listdir("/proc/self/fd")}


def _vm_size():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _open_cuda(announcement, config):
    """cuda-ipc, before lockdown (nothing of it can be opened afterwards):
    initialize CUDA, open the host's device arena and events, and make
    torch's CUDA state (context, stream, cuBLAS handle) with a warm-up.
    Returns the tensors and the descriptors that appeared meanwhile: the
    driver's, kept open and the only ones ioctl is allowed on."""
    before = _open_fds()
    arena = _core.CudaWorkerArena.open(announcement)
    import torch
    device = torch.device("cuda", arena.device)
    torch.cuda.set_device(device)
    a = torch.ones(64, 64, device=device)
    (a @ a).sum().item()
    tensors = _tensors.WorkerCudaTensors(arena)
    driver_fds = []
    for n in sorted(_open_fds() - before):
        try:
            os.fstat(n)  # the listing's own descriptor is gone by now
        except OSError:
            continue
        driver_fds.append(n)
    # The driver reserves address space for unified addressing; RLIMIT_AS
    # counts it, and a limit below what is already mapped fails every later
    # allocation with a confusing error. Say so now instead.
    limit = config.get("rlimits", {}).get("address_space", 0)
    used = _vm_size()
    if limit and used >= limit:
        raise RuntimeError(f"CUDA initialization mapped {used} bytes of address space, above "
                           f"SandboxConfig.address_space_bytes ({limit}); raise it for the "
                           "cuda-ipc transport")
    return tensors, driver_fds


def serve(fd):
    global CHANNEL_FD
    CHANNEL_FD = fd
    channel = _core.Channel.from_fd(fd, accept_fds=True, max_frame=1 << 30)
    msg, fds = _recv(channel)
    if not (isinstance(msg, tuple) and len(msg) in (3, 4) and msg[0] == "init"):
        return 2
    config, segments = msg[1], msg[2]
    channel.set_spin_us(config.get("channel_spin_us", 0))
    cuda = msg[3] if len(msg) == 4 else None
    driver_fds = []
    tensors = None
    try:
        if cuda is not None:
            tensors, driver_fds = _open_cuda(cuda, config)
        else:
            tensors = _tensors.WorkerArenaTensors()
        _tensors.watch_raw_access(tensors.exposed)
        tensors.adopt(segments, fds)
        _preload(config["preload"])
        import torch
        threads = config.get("torch_threads", 1)
        torch.set_num_threads(threads)
        if not config.get("allow_jit", True):
            torch.backends.mkldnn.enabled = False  # its kernels are generated code
        if threads > 1:
            # Start the intra-op pool now: no new threads after lockdown.
            torch.ones(1 << 16).sum()
        # Printing a tensor imports modules on first use (torch 2.11:
        # torch._subclasses.schema_check_mode); no import works after lockdown.
        repr(torch.ones(2))
        # A zygote's children all start from its numpy generator: without a
        # seed of its own, every tenant's worker would draw the same numbers.
        numpy = sys.modules.get("numpy")
        if numpy is not None:
            numpy.random.seed(numpy.frombuffer(os.urandom(16), dtype=numpy.uint32))
        facts = _ivc_worker.lockdown(config, [fd] + tensors.fds(), driver_fds)
    except BaseException as e:  # noqa: B902 - report any start-up failure
        _send(channel, ("error", f"{type(e).__name__}: {e}"))
        return 1
    _send(channel, ("ready", {"pid": os.getpid(), "facts": facts}))

    port = _protocol.MediatorPort(channel, tensors)
    try:
        return _serve_jobs(port, tensors)
    finally:
        if cuda is not None:
            _close_cuda(tensors)


def _close_cuda(tensors):
    """At retirement: unmap the host's arena. (A killed worker's mappings
    go with the process.)"""
    tensors._cuda_bases.clear()
    tensors._download = None
    try:
        tensors.cuda.close()
    except Exception:  # noqa: BLE001 - exiting anyway
        pass


def _serve_jobs(port, tensors):
    import torch
    # Taken before any job runs: a job may rebind torch.default_generator,
    # and this loop runs with the audit hook off.
    generator = torch.default_generator
    while True:
        try:
            msg = port.recv()
        except _core.ChannelClosed:
            return 0
        if msg[0] == "run":
            job = msg[1]
            tensors.drop(job.get("drop_spaces", ()))
            tensors.exposed.clear()
            generator.manual_seed(job["seed"])
            _mediator.run_job(port, job, _ivc_worker.run_user, _ivc_worker.call_user)
        elif msg[0] == "exit":
            return 0
        else:
            return 2


def zygote(fd):
    channel = _core.Channel.from_fd(fd, accept_fds=True)
    msg, _ = _recv(channel)
    if not (isinstance(msg, tuple) and len(msg) == 2 and msg[0] == "zygote-init"):
        return 2
    try:
        _preload(msg[1]["preload"])
    except BaseException as e:  # noqa: B902
        _send(channel, ("error", f"{type(e).__name__}: {e}"))
        return 1
    _send(channel, ("zygote-ready", {"pid": os.getpid()}))
    while True:
        _reap()
        try:
            msg, fds = _recv(channel)
        except _core.ChannelClosed:
            return 0
        if msg != ("fork",) or len(fds) != 1:
            for f in fds:
                os.close(f)
            return 2
        child_fd = fds[0]
        zygote = os.getpid()
        pid = os.fork()
        if pid == 0:
            status = 1
            try:
                channel.close()
                _ivc_worker.after_fork(zygote)
                status = serve(child_fd)
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(status)
        os.close(child_fd)
        # The child cannot have been reaped yet (only this loop reaps), so
        # its pid is still its own.
        pidfd = os.pidfd_open(pid)
        try:
            _send(channel, ("forked", {"pid": pid}), [pidfd])
        finally:
            os.close(pidfd)


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main(fd, is_zygote):
    try:
        return zygote(fd) if is_zygote else serve(fd)
    except _core.ChannelClosed:
        return 0  # the host is gone (it exited, or retired this process mid-reply)
