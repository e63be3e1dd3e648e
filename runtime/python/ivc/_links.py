"""The host's end of one mediator's channel, per tier.

Both links send host messages and receive validated mediator messages. Each
mediator has a budget of time: the time the host spent waiting on it, so a
mediator that waits its turn behind a slow one is not charged for it. A failure of the carrier (timeout, a dead worker, bytes that
break the protocol) is raised as the matching ivc error; the interleaver
then fails that mediator and carries on with the others.
"""

import atexit
import collections
import gc
import queue
import sys
import threading
import time

import torch

from . import _core, _mediator, _protocol, _tensors
from ._errors import (MediatorMemoryExceeded, MediatorTimeout, ProtocolViolation,
                      WorkerCrashed, WorkerError, WorkerTimeout)

# How often the host checks its resident memory while a FAST mediator runs.
# Python code allocates a few megabytes in that time.
_MEMORY_CHECK_S = 0.005


def _timeout_ms(deadline):
    return max(0, int((deadline - time.monotonic()) * 1000) + 1)


try:  # torch 2.4 and later name the device; the per-device functions are deprecated there
    torch.is_autocast_enabled("cpu")

    def _autocast_on():
        return torch.is_autocast_enabled("cuda") or torch.is_autocast_enabled("cpu")
except TypeError:
    def _autocast_on():
        return torch.is_autocast_enabled() or torch.is_autocast_cpu_enabled()


def _modes_at_rest():
    """Whether this thread's torch modes are torch's defaults. They are
    thread-local, and a mediator whose `with torch.autocast(...)` failed in
    its __enter__, or that was abandoned inside `with set_grad_enabled(...)`,
    leaves them changed for whatever runs on the thread next."""
    return (torch.is_grad_enabled() and not torch.is_inference_mode_enabled() and
            not _autocast_on())


class _FastThreads:
    """Threads that run FAST mediators, kept between traces (starting a
    thread costs more than a whole warm trace). A thread is kept only when
    its mediator ended cleanly and left torch's thread-local modes at rest:
    one the host abandoned (a timeout), whose mediator failed, or whose
    modes changed is never returned."""

    def __init__(self, keep=8):
        self._idle = []
        self._lock = threading.Lock()
        self._keep = keep
        self._busy = 0
        self._quiet = threading.Condition(self._lock)
        # Mediators the host gave up on that are still in a call, by tenant.
        self._stuck = collections.Counter()

    def stuck(self, tenant=None):
        """How many abandoned mediators (of `tenant`, or of all) still run."""
        with self._lock:
            return self._stuck[tenant] if tenant is not None else sum(self._stuck.values())

    def _mark(self, tenant, change):
        with self._lock:
            self._stuck[tenant] += change
            if not self._stuck[tenant]:
                del self._stuck[tenant]

    def run(self, fn):
        with self._lock:
            q = self._idle.pop() if self._idle else None
        if q is None:
            q = queue.SimpleQueue()
            threading.Thread(target=self._loop, args=(q,), name="ivc-fast-mediator",
                             daemon=True).start()
        q.put(fn)

    def _loop(self, q):
        while True:
            fn = q.get()
            with self._lock:
                self._busy += 1
            kept = False
            try:
                kept = fn() and _modes_at_rest()
            finally:
                # What the job made is freed while it still counts as busy:
                # freeing a tensor releases the GIL, and a thread that takes
                # it back during interpreter exit aborts the process (see
                # drain). A job that did not end cleanly may have left cycles.
                fn = None
                if not kept:
                    gc.collect()
                with self._lock:
                    self._busy -= 1
                    self._quiet.notify_all()
            if not kept:
                return
            with self._lock:
                if len(self._idle) >= self._keep:
                    return
                self._idle.append(q)

    def drain(self, grace_s):
        """Waits, up to `grace_s`, for mediators still running, abandoned ones
        included. At interpreter exit a daemon thread that comes back from a
        C call (a mediator abandoned inside a long torch op) is ended by
        CPython with a forced unwind, which torch's noexcept frames turn
        into std::terminate: the process would abort instead of exiting."""
        deadline = time.monotonic() + grace_s
        with self._lock:
            while self._busy and time.monotonic() < deadline:
                self._quiet.wait(deadline - time.monotonic())
            if self._busy:
                print(f"ivc: {self._busy} FAST mediator(s) still in a call at exit",
                      file=sys.stderr)


_threads = _FastThreads()
# Abandoned FAST mediators still in a call on the host, in all, past which
# every FAST mediator runs ISOLATE (one of its own tenant's is enough).
MAX_STUCK_FAST = 4


def stuck_fast(tenant):
    """Why a FAST mediator of `tenant` should run in a worker now, or None:
    the host's cores and memory are taken by abandoned calls."""
    if _threads.stuck(tenant):
        return f"a FAST mediator of tenant {tenant!r} the host gave up on is still in a call"
    if _threads.stuck() >= MAX_STUCK_FAST:
        return f"{MAX_STUCK_FAST} FAST mediators the host gave up on are still in calls"
    return None
# atexit handlers run before the interpreter starts ending daemon threads.
_EXIT_GRACE_S = 30.0
atexit.register(_threads.drain, _EXIT_GRACE_S)

# FAST turns, process-wide: while a FAST mediator runs, its random generator
# state is installed as torch's (CPU) default one. Runs on other models in
# other threads take their FAST turns one at a time, so no two mediators'
# states are ever swapped in at once. (A model forward drawing random numbers
# in another thread during a turn would still draw from the mediator's
# stream: the default generator is process-wide.)
_turn = threading.Lock()


# How long a turn waits for a spent budget to be given back.
_ROOM_WAIT_S = 0.5


class MemoryBudget:
    """How much the host's resident memory may still grow during the turns of
    one trace's FAST mediators, all of them together: a budget each would let
    a trace of n invokes use n times fast_memory_bytes."""

    def __init__(self, total):
        self.total = total
        self.left = total
        # Mediators' threads give back what they held as they end, while
        # the host charges others.
        self.lock = threading.Lock()
        self.freed = threading.Condition(self.lock)

    def room(self, wait_s):
        """Whether anything is left, waiting up to `wait_s` for spent memory
        to be given back (a stopped Python loop ends in moments; a C call
        the host gave up on may not)."""
        with self.lock:
            return self.freed.wait_for(lambda: self.left >= 0, wait_s)


class TimeBudget:
    """How long one trace's FAST mediators may run, all of them together:
    a budget each would let a loop of n invokes hold the host n times
    fast_timeout_s."""

    def __init__(self, total):
        self.left = total
        self.lock = threading.Lock()

    def spend(self, seconds):
        with self.lock:
            self.left = max(0.0, self.left - seconds)


class FastLink:
    """A mediator in a host thread, over an in-memory channel.

    FAST mediators take turns with the host, so a wall-clock deadline would
    charge one mediator for the time the others ran. Each has instead a
    budget of running time: the time the host spent waiting on it; and the
    trace's FAST mediators share a budget of memory (None: none): how much
    the host's resident memory grew during their turns, added up."""

    tier = "fast"

    def __init__(self, guard, budget_s, spin_us=0, memory=None, tenant="", clock=None):
        self.guard = guard  # _core.FastGuard: the audit hook's policy on this thread
        self.tenant = tenant
        self._stuck = False  # abandoned while its thread was in the mediator
        self._own_s = budget_s
        self.clock = clock  # a TimeBudget the trace's FAST mediators share, or None
        self.memory = memory  # a MemoryBudget the trace's FAST mediators share
        self._overdrawn = False  # its own growth took the shared budget past zero
        self._held = 0  # its growth charged so far, given back when it ends
        # The host's resident memory when the mediator's turn began: when the
        # host sent it a message (it runs from then on, while the host may
        # still be busy), or when its last message arrived.
        self._resident = 0
        self.channel, mediator_end = _core.memory_channel_pair(spin_us=spin_us)
        self.tensors = _tensors.InProcessTensors()
        self.port = _protocol.MediatorPort(mediator_end, self.tensors)
        self.description = "host thread"
        self._rng = None
        self._host_rng = None
        # The thread running the mediator, while it runs; the host interrupts
        # it at most once, under the guard, so that no interrupt outlives it.
        self._thread = None
        self._abandoned = False
        self._guard = threading.Lock()
        self._said_last = False  # it sent "end" or "exception"
        self.charged_s = 0.0  # time charged to the budget as it happened

    @property
    def budget_s(self):
        """Its running time left: its own, or the trace's if that is less."""
        return self._own_s if self.clock is None else min(self._own_s, self.clock.left)

    @property
    def memory_left(self):
        return None if self.memory is None else self.memory.left

    def _charge(self, grown, kept=False):
        """Charges growth to the shared budget. Only the mediator whose growth
        spends it is stopped: the others go on while they grow no more. What
        is `kept` (the host's copies of its saves) stays charged to the end
        of the trace; the rest is given back when its thread ends."""
        if self.memory is None or grown <= 0:
            return
        with self.memory.lock:
            self.memory.left -= grown
            if not kept:
                self._held += grown
            self._overdrawn |= self.memory.left < 0

    def keep(self, nbytes):
        """Charges the host's copies of the mediator's saves, kept to the end."""
        self._charge(nbytes, kept=True)

    def _give_back(self):
        """Its thread has ended, its namespace with it: what it held is free.
        (Not before: a mediator the host failed may still be parked in a wait,
        or in a C call that holds it all.)"""
        if self.memory is not None:
            with self.memory.lock:
                self.memory.left += self._held
                self._held = 0
                self.memory.freed.notify_all()

    # A mediator has its own CPU random generator state, seeded as a
    # worker's is: swapped in while it runs (the host waits meanwhile), and
    # out when it sends, so the model's own random draws are untouched.
    def _enter(self):
        if self._host_rng is None:
            _turn.acquire()
            try:
                host_rng = torch.get_rng_state()
                torch.set_rng_state(self._rng)
            except BaseException:
                # (A RecursionError, say: the turn must not stay taken.)
                _turn.release()
                raise
            self._host_rng = host_rng

    def _leave(self):
        if self._host_rng is not None:
            self._rng = torch.get_rng_state()
            torch.set_rng_state(self._host_rng)
            self._host_rng = None
            _turn.release()

    def start(self, job):
        self._rng = torch.Generator().manual_seed(job["seed"]).get_state()
        port = self.port

        def target():
            """Runs the job; True when it ended cleanly (the thread may be kept)."""
            me = threading.get_ident()
            clean = False
            try:
                with self._guard:
                    if self._abandoned:
                        return False  # given up on before it started
                    self._thread = me
                try:
                    msg = port.recv()
                    if msg[0] == "run":
                        clean = _mediator.run_job(port, msg[1], self.guard.run, self.guard.call)
                except _core.ChannelClosed:
                    pass  # abandoned by the host (timeout, model error)
                finally:
                    # Nothing more will come: a host waiting for the last
                    # message stops polling for this thread's next wait.
                    port.channel.close()
                    with self._guard:
                        self._thread = None
                        _core.interrupt_thread(me, None)  # one not raised yet
                        if self._stuck:
                            _threads._mark(self.tenant, -1)
                    self._give_back()
            except _mediator.Abandoned:
                return False  # it came after the mediator's own code
            return clean and not self._abandoned

        _threads.run(target)
        self.send(("run", job))

    def send(self, msg):
        if self.memory is not None and self.memory.left < 0 and msg[0] != "run" \
                and not self.memory.room(_ROOM_WAIT_S):
            # Another mediator spent the trace's budget and still holds it
            # (in a C call the host gave up on): no turn starts meanwhile.
            self._interrupt()
            raise MediatorMemoryExceeded(
                f"the FAST mediators of the trace hold more than {self.memory.total} bytes "
                f"(fast_memory_bytes), and what holds it has not ended")
        data = _core.encode(msg, self.tensors.export)
        self._enter()
        if self.memory_left is not None:
            self._resident = _core.resident_bytes()
        try:
            self.channel.send(data)
        except _core.ChannelClosed:
            self._leave()
            raise WorkerCrashed("the FAST mediator's thread ended mid-protocol") from None
        except BaseException:
            self._leave()
            raise

    def recv(self):
        started = time.monotonic()
        metered = self.memory_left is not None
        try:
            data = self._wait(started + self.budget_s)
        finally:
            # Its turn is over: it sent a message, or it is abandoned.
            self._spend(time.monotonic() - started)
            if metered:  # a turn that shrank earns nothing: the frees may be another thread's
                resident = _core.resident_bytes()
                self._charge(resident - self._resident)
                self._resident = resident
            self._leave()
        if self._overdrawn:
            self._stop_over_memory()
        try:
            msg = _core.decode(data, self.tensors.import_)
            _protocol.check_mediator_message(msg)
        except (_core.CodecError, _protocol.Violation) as e:
            # The mediator's side checks what user code can get wrong; what
            # is left is ivc's own fault, treated as a worker's would be.
            raise ProtocolViolation(f"the FAST mediator broke the protocol: {e}") from None
        self._said_last = msg[0] in ("end", "exception")
        if metered:
            # What decoding made is the mediator's too: a list of one string
            # a million times decodes to a million strings.
            resident = _core.resident_bytes()
            self._charge(resident - self._resident)
            self._resident = resident
            if self._overdrawn:
                self._stop_over_memory()
        return msg

    def _wait(self, deadline):
        """The mediator's next message. With a memory budget, the host wakes
        every _MEMORY_CHECK_S to check the growth since the turn began. A
        spent budget (charge, charge_host) is a stop, whatever the mediator
        sent."""
        if self.budget_s <= 0:
            self._interrupt()
            if self._own_s > 0:
                raise MediatorTimeout("the trace's FAST mediators used up the time they share "
                                      "(fast_trace_timeout_s)")
            raise MediatorTimeout("the host's work for the FAST mediator (its messages, the "
                                  "modules it called) used up its time (fast_timeout_s)")
        if self._overdrawn:
            self._stop_over_memory()
        while True:
            until = deadline
            if self.memory_left is not None:
                until = min(deadline, time.monotonic() + _MEMORY_CHECK_S)
            try:
                data, _ = self.channel.recv(timeout_ms=_timeout_ms(until))
                return data
            except _core.ChannelTimeout:
                if time.monotonic() >= deadline:
                    self._interrupt()
                    raise MediatorTimeout("the FAST mediator did not finish before its deadline "
                                          "(it is interrupted at its next Python bytecode)") from None
            except _core.ChannelClosed:
                raise WorkerCrashed("the FAST mediator's thread ended mid-protocol") from None
            if self.memory_left is not None \
                    and _core.resident_bytes() - self._resident > self.memory_left:
                self._stop_over_memory()

    def _spend(self, seconds):
        self.charged_s += seconds
        self.charge(seconds)

    def charge(self, seconds):
        """Charges the host's work on its messages (decoding, printing,
        answering them) to its budget, as WorkerLink.charge does: a loop of
        cheap messages runs out of time as a busy mediator does."""
        self._own_s = max(0.0, self._own_s - seconds)
        if self.clock is not None:
            self.clock.spend(seconds)

    def charge_host(self, seconds, grown):
        """Charges the host's work for the mediator outside its turns (a
        module it called: `seconds`, and `grown` bytes of resident memory)
        to its budgets; past either, its next message stops it."""
        self._spend(seconds)
        if self.memory is not None:
            self._charge(grown)

    def _stop_over_memory(self):
        self._interrupt()
        raise MediatorMemoryExceeded(
            f"the FAST mediators of the trace grew the host's resident memory by more than "
            f"{self.memory.total} bytes (fast_memory_bytes; it is interrupted at its "
            f"next Python bytecode)")

    def _interrupt(self):
        with self._guard:
            self._abandoned = True
            if self._thread is not None:
                # A C call goes on until it returns: counted until then.
                self._stuck = True
                _threads._mark(self.tenant, +1)
                _core.interrupt_thread(self._thread, _mediator.Abandoned)
                self._thread = None

    def finish(self, clean):
        self._leave()
        if not self._said_last:
            # Failed by the host (a refused skip, a model error) before its
            # last message, while its thread may still run: stop it, and
            # count it until it ends. (One that said its last is ending.)
            self._interrupt()
        self.channel.close()
        self.tensors.clear()


class FailedLink:
    """An ISOLATE mediator whose worker could not be started: it fails alone,
    and the trace runs on without it."""

    tier = "isolate"

    def __init__(self, error):
        self.error = error
        self.description = "no worker"

    def start(self, job):
        raise self.error

    def send(self, msg):
        raise self.error

    def recv(self):
        raise self.error

    def finish(self, clean):
        pass


class WorkerLink:
    """A mediator in ivc-worker, over its socket and shared-memory arena.

    While the host waits on the worker (to read from it or to write to it),
    the watchdog is armed with what is left of its budget: at that moment it
    kills the worker's process group even if the host thread is stuck."""

    tier = "isolate"

    def __init__(self, runtime, worker, timeout_s):
        self.runtime = runtime
        self.worker = worker
        tensors = (_tensors.HostCudaTensors if worker.transport == "cuda-ipc"
                   else _tensors.HostArenaTensors)
        self.tensors = tensors(worker, runtime.sandbox.arena_max_bytes)
        self.killed_by_watchdog = False
        self.export_limit = runtime.sandbox.arena_max_bytes  # the host's copies of its exports
        self.timeout_s = timeout_s
        self.budget_s = timeout_s
        self.charged_s = 0.0  # time spent waiting on the worker, in all
        self.description = f"worker pid {worker.pid} ({worker.origin})"

    def start(self, job):
        self.send(("run", job))

    def _watch(self):
        """Starts one wait on the worker: returns (start, watchdog ticket).
        (A plain pair, not a context manager: this runs twice a hook.)"""
        return time.monotonic(), self.runtime._pool.watch(self.worker,
                                                          int(self.budget_s * 1000) + 1)

    def _unwatch(self, started, ticket):
        """Ends it: charges its time to the budget."""
        waited = time.monotonic() - started
        self.charged_s += waited
        self.budget_s = max(0.0, self.budget_s - waited)
        if not self.runtime._pool.unwatch(ticket):
            self.killed_by_watchdog = True

    def charge(self, seconds):
        """Charges the host's work on the worker's messages (decoding them,
        copying what they name, answering them) to its budget: a worker
        that makes the host busy, message after message, runs out of time
        as one that is busy itself does."""
        self.budget_s = max(0.0, self.budget_s - seconds)

    def _announce(self, dropped=()):
        anns = self.worker.take_announcements()
        if not anns and not dropped:
            return
        msg = ("segments", [(s, size, role) for s, size, role, _ in anns], list(dropped))
        self._send_raw(_core.encode(msg, _protocol.no_tensors), [fd for *_, fd in anns])

    def _timed_out(self, why):
        self.worker.kill()
        return WorkerTimeout(f"{self.description} did not finish before its deadline "
                             f"({self.timeout_s:g} s); {why}")

    def _spent(self):
        """A spent budget is a stop, however many frames the worker queued
        (each wait would still be armed for a millisecond)."""
        if self.budget_s <= 0:
            raise self._timed_out("its process group was killed")

    def _send_raw(self, data, fds=()):
        self._spent()
        try:
            started, ticket = self._watch()
            try:
                self.worker.send(data, list(fds), timeout_ms=_timeout_ms(started + self.budget_s))
            finally:
                self._unwatch(started, ticket)
        except _core.ChannelTimeout:
            self.worker.kill()
            raise WorkerTimeout(f"{self.description} stopped reading before its deadline") from None
        except _core.ChannelError as e:
            if self.killed_by_watchdog:
                raise self._timed_out("the watchdog killed its process group") from None
            raise WorkerCrashed(f"{self.description} is gone: {e}") from None

    def _send(self, msg):
        data = _core.encode(msg, self.tensors.export)
        if self.tensors.new_segments:
            self.tensors.new_segments = False
            self._announce()
        before_send = getattr(self.tensors, "before_send", None)
        if before_send:
            before_send()
        self._send_raw(data)

    def recv(self):
        try:
            return self._recv()
        except WorkerError as e:
            e.pid = self.worker.pid
            raise

    def send(self, msg):
        try:
            self._send(msg)
        except WorkerError as e:
            e.pid = self.worker.pid
            raise

    def _recv(self):
        while True:
            self._spent()
            try:
                started, ticket = self._watch()
                try:
                    data, _ = self.worker.recv(timeout_ms=_timeout_ms(started + self.budget_s))
                finally:
                    self._unwatch(started, ticket)
                self.tensors.begin_message()
                decoding = time.monotonic()
                try:
                    msg = _core.decode(data, self.tensors.import_)
                    kind = _protocol.check_mediator_message(msg)
                finally:
                    self.charge(time.monotonic() - decoding)
            except _core.ChannelTimeout:
                raise self._timed_out("its process group was killed") from None
            except _core.ChannelClosed as e:
                if self.killed_by_watchdog:
                    raise self._timed_out("the watchdog killed its process group") from None
                raise WorkerCrashed(f"{self.description} died mid-protocol ({e}); "
                                    "it crashed, hit a limit, or was killed") from None
            except (_core.ProtocolError, _core.CodecError) as e:
                raise ProtocolViolation(f"{self.description} broke the protocol: {e}") from None
            except _core.ChannelError as e:
                raise WorkerCrashed(f"{self.description}: {e}") from None
            except Exception as e:  # noqa: BLE001 - whatever worker bytes cause
                raise ProtocolViolation(f"{self.description} broke the protocol: {e}") from None
            if kind != "need":
                return msg
            if msg[1] > self.runtime.sandbox.arena_max_bytes:
                raise ProtocolViolation(f"{self.description} asked for {msg[1]} bytes of upload space")
            try:
                self.worker.grow_upload(msg[1])
            except ValueError as e:
                raise ProtocolViolation(f"{self.description}: {e}") from None
            self._announce()

    def finish(self, clean):
        if self.killed_by_watchdog:
            clean = False
        if clean:
            try:
                dropped = self.worker.reset_arena()
                self.tensors.forget(dropped)
                if dropped:
                    self._announce(dropped)
            except Exception:  # noqa: BLE001 - a worker we cannot talk to is not clean
                clean = False
        if not clean:
            try:
                self.worker.kill()
            except ValueError:
                pass
        self.runtime._pool.release(self.worker, clean)
