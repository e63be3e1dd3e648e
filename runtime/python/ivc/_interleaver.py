"""Running one trace: the model's forward, interleaved with its mediators.

Every submodule's forward is wrapped for the duration of the trace (no
model structure is assumed: paths come from named_modules()). A wrapper
counts the module's calls and, when a mediator waits on this module, serves
it in two stages:
  input   requests of .input/.inputs, swaps of .input, skips
  output  requests of .output, swaps of .output
Mediators are served in invoke order; each runs until it asks for something
else, and that is its pending event. A request for a module that already
ran is answered with an error at once; one the model never reaches is
answered with an error when the forward ends.

Invokes are batched along dim 0: mediator i owns rows [start_i, start_i+n_i)
and sees and swaps only those (every tensor whose dim 0 is the batch size
is narrowed; other values are shared).
"""

import collections
import copy
import logging
import threading
import time

import torch

from . import _core
from ._errors import MediatorError, MediatorStopped, ProtocolViolation, WorkerError
from ._grads import watched
from ._module_calls import module_call_problem, skip_problem
from ._mediator import _BUILTIN_ERRORS, _tensors_in, is_free_kind


log = logging.getLogger("ivc.runtime")


class _EarlyStop(Exception):
    """Raised through the model's forward after tracer.stop()."""


MAX_LOG_BYTES = 1 << 20  # per mediator; the rest is dropped, with a note
MAX_BARRIERS = 1 << 12  # barrier messages per mediator and trace


class MediatorState:
    def __init__(self, index, plan_mediator, link, rows, turn=None):
        self.index = index
        self.turn = turn  # of its loop (a plan's `loop`), or None
        self.plan = plan_mediator
        self.tier = link.tier
        self.link = link
        self.rows = rows  # (start, count)
        self.pending = None  # ("request"|"swap"|"skip"|"barrier", path, stage, call, payload)
        self.done = False
        self.clean = False
        self.saves = {}
        self.logs = []
        self.error = None
        self.delivered = {}
        self.deliveries = 0
        self.log_bytes = 0
        self.barriers = 0  # barrier messages it sent
        # What it may give others at a barrier, and take from them: free
        # names nothing supplied (the job's `exports` and `unbound`), never
        # a caller's value a guard checked or a module the plan named.
        self.exports = frozenset()
        self.unbound = frozenset()


def copied_bytes(value):
    """What own(value) copies: each tensor's bytes, once per tensor."""
    tensors = {id(t): t for t in _tensors_in(value)}
    return sum(t.numel() * t.element_size() for t in tensors.values())


def own(value, copies=None):
    """A host-owned copy: tensors cloned (out of shared memory, away from
    the mediator), each once however often it is referenced, containers
    rebuilt. An expanded view is refused (ValueError): 4 bytes may stand
    for 2^30 elements, and a copy makes them all."""
    copies = {} if copies is None else copies
    if isinstance(value, torch.Tensor):
        if id(value) not in copies:
            if value.numel() * value.element_size() > (held := storage_bytes(value)):
                raise ValueError(f"a tensor of {value.numel()} elements over {held} bytes (an "
                                 f"expanded view) would be copied whole; use .contiguous() of "
                                 f"what is needed")
            copies[id(value)] = (value, value.clone())  # (kept alive: ids stay unique)
        return copies[id(value)][1]
    if isinstance(value, tuple):
        return tuple(own(v, copies) for v in value)
    if isinstance(value, list):
        return [own(v, copies) for v in value]
    if isinstance(value, dict):
        return {own(k, copies): own(v, copies) for k, v in value.items()}
    if isinstance(value, (set, frozenset)):
        return type(value)(own(v, copies) for v in value)
    return value


def _batched(t, total):
    return isinstance(t, torch.Tensor) and t.dim() > 0 and t.shape[0] == total


def narrow(value, start, count, total):
    if count == total:
        return value  # the mediator owns every row
    if isinstance(value, torch.Tensor):
        return value.narrow(0, start, count) if _batched(value, total) else value
    if isinstance(value, tuple):
        return tuple(narrow(v, start, count, total) for v in value)
    if isinstance(value, list):
        return [narrow(v, start, count, total) for v in value]
    if isinstance(value, dict):
        return {k: narrow(v, start, count, total) for k, v in value.items()}
    return value


def storage_of(t):
    """The memory block a tensor is a view into (torch 1.13 and 2.x)."""
    return t.untyped_storage() if hasattr(t, "untyped_storage") else t.storage()


def storage_bytes(t):
    """The bytes of the memory a tensor is a view into (as many as it has
    elements when it has no storage of its own, as a sparse tensor)."""
    try:
        return storage_of(t).nbytes()
    except (RuntimeError, NotImplementedError):
        return t.numel() * t.element_size()


def _kept_tensors(modules, params):
    """The tensors the model keeps from one forward to the next: parameters
    and buffers, and tensors its modules hold as plain attributes, alone or
    a few levels into lists, tuples, dicts and plain objects (a rotary
    embedding's cached cos and sin, `{"rope": {"cos": t}}`)."""
    yield from params.values()
    seen = set()

    def walk(value, depth):
        if isinstance(value, torch.Tensor):
            yield value
            return
        if depth == 0 or isinstance(value, (torch.nn.Module, type, str, bytes)) or \
                id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, dict):
            items = value.values()
        elif isinstance(value, (list, tuple, set, frozenset)):
            items = value
        elif hasattr(value, "__dict__") and not callable(value):
            items = vars(value).values()
        else:
            return
        for v in items:
            yield from walk(v, depth - 1)

    for module in modules.values():
        for name, value in vars(module).items():
            if name not in _MODULE_INTERNALS:
                yield from walk(value, 4)


# What every module keeps of torch's own (parameters and buffers are in
# `params`, submodules in `modules`; the rest are hooks and flags).
_MODULE_INTERNALS = frozenset(vars(torch.nn.Module()))


def unalias(value, owned):
    """`value` with every tensor that views the model's own memory (a
    parameter's or buffer's storage, as a rotary embedding's cached cos
    slice does) replaced by a copy: what a mediator may change in place,
    and what the model goes on with, must never be the shared model."""
    if isinstance(value, torch.Tensor):
        return value.clone() if value.numel() and storage_of(value).data_ptr() in owned else value
    if isinstance(value, (tuple, list)):
        items = [unalias(v, owned) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value
        if isinstance(value, list):
            return items
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, dict):
        items = {k: unalias(v, owned) for k, v in value.items()}
        if all(items[k] is v for k, v in value.items()):
            return value
        if type(value) is not dict:  # the model's own output class keeps its type
            try:
                kept = copy.copy(value)
                for k, v in items.items():
                    kept[k] = v
                return kept
            except Exception:  # noqa: BLE001 - a class that cannot be copied
                pass
        return items
    return value


def merge(current, value, start, count, total, where="value"):
    """`current` with this mediator's rows replaced by `value`. Keeps the
    activation's dtype, device and shape, so the model goes on as before."""
    if isinstance(current, torch.Tensor):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{where} must be a tensor, not {type(value).__name__}")
        batched = _batched(current, total) and count != total
        want = ((count,) + tuple(current.shape[1:])) if batched else tuple(current.shape)
        if tuple(value.shape) != want:
            raise ValueError(f"{where} has shape {tuple(value.shape)}, expected {want}")
        value = value.to(device=current.device, dtype=current.dtype)
        if not batched:
            return value.clone()
        return torch.cat([current[:start], value, current[start + count:]])
    if isinstance(current, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(current):
            raise TypeError(f"{where} must be a sequence of {len(current)} items")
        items = [merge(c, v, start, count, total, f"{where}[{i}]")
                 for i, (c, v) in enumerate(zip(current, value))]
        return tuple(items) if isinstance(current, tuple) else items
    if isinstance(current, dict):
        if not isinstance(value, dict) or set(value) != set(current):
            raise TypeError(f"{where} must be a dict with keys {sorted(map(str, current))}")
        return {k: merge(current[k], value[k], start, count, total, f"{where}[{k!r}]")
                for k in current}
    return own(value)


def rebuild_exception(type_name, message, tb_text, location, state, trace_index):
    cls = _BUILTIN_ERRORS.get(type_name)
    if cls is not None and issubclass(cls, Exception) and "." not in type_name:
        try:
            exc = cls(message)
        except Exception:  # noqa: BLE001 - e.g. UnicodeDecodeError needs more arguments
            exc = MediatorError(f"{type_name}: {message}")
    else:
        exc = MediatorError(f"{type_name}: {message}")
    where = f"{location[0]}:{location[1]}" if location else "unknown location"
    turn = "" if state.turn is None else f", turn {state.turn} of its loop,"
    exc.add_note(f"raised by mediator {state.index}{turn} of trace {trace_index} "
                 f"({state.tier}) at {where}")
    exc.add_note(tb_text.rstrip())
    exc.ivc_location = tuple(location) if location else None
    exc.ivc_traceback = tb_text
    exc.ivc_mediator = state.index
    exc.ivc_turn = state.turn
    return exc


class _HookState:
    __slots__ = ("args", "kwargs", "out", "skips")

    def __init__(self, args, kwargs):
        self.args = args
        self.kwargs = kwargs
        self.out = None
        self.skips = []


class Interleaver:
    def __init__(self, model, mediators, total, receiver, trace_index, modules, params):
        self.model = model
        self.meds = mediators
        self.total = total
        self.receiver = receiver
        self.trace_index = trace_index
        self.modules = modules
        self.params = params
        self.owned = {storage_of(t).data_ptr() for t in _kept_tensors(modules, params)
                      if t.numel()}
        self.started = {}
        self.finished = {}
        self.waiting = {}
        self.current = None  # (path, stage, call) being served
        self.state = None    # its _HookState
        self.barriers = {}
        self.stopped = False
        self.exports = {}
        self.exported_by = {}  # name -> (the mediator whose value it holds, its bytes)
        self._ready = collections.deque()  # mediators to drive, in turn
        self._driving = False
        self._calling = False  # running a module for a mediator: no hooks
        self.positions = 1  # of the model's inputs: what a module call may take

    # -- events -----------------------------------------------------------
    def _fail(self, m, error):
        m.error = error
        m.done = True
        if m.pending is not None:
            self._unpark(m)

    def _park(self, m, event):
        m.pending = event
        path = event[1]
        self.waiting[path] = self.waiting.get(path, 0) + 1

    def _unpark(self, m):
        event, m.pending = m.pending, None
        if event[0] != "barrier":
            self.waiting[event[1]] -= 1
        elif m in self.barriers.get(event[1], ()):
            # Answered without the barrier opening (an error at the end): it
            # no longer counts towards it.
            self.barriers[event[1]].remove(m)
        return event

    def _reply(self, m, msg):
        try:
            m.link.send(msg)
            return True
        except (WorkerError, MediatorStopped) as e:
            self._fail(m, e)
            return False

    def _error(self, m, type_name, message):
        return self._reply(m, ("error", type_name, message))

    def _deliver(self, m, value, live=True):
        tensors = list(_tensors_in(value))
        try:
            m.link.send(("value", value))
        except (TypeError, ValueError) as e:
            return self._error(m, type(e).__name__, str(e))
        except (WorkerError, MediatorStopped) as e:
            self._fail(m, e)
            return False
        for t in tensors:
            m.delivered[m.deliveries] = t if live else None
            m.deliveries += 1
        return True

    def _apply_mutations(self, m, mutations):
        if len({index for index, _ in mutations}) != len(mutations):
            raise ProtocolViolation("a message changes one delivery twice")
        for index, tensor in mutations:
            if index not in m.delivered:
                raise ProtocolViolation(f"mutation of unknown delivery {index}")
            target = m.delivered[index]
            if target is None:
                continue  # a copy (a parameter): changing it changes nothing
            if tensor.shape != target.shape or tensor.dtype != target.dtype:
                raise ProtocolViolation(f"mutation of delivery {index} changed its shape or dtype")
            try:
                with torch.no_grad():
                    target.copy_(tensor)
            except Exception as e:  # noqa: BLE001
                raise ProtocolViolation(f"mutation of delivery {index}: {e}") from None

    @staticmethod
    def _stage(kind, what):
        if kind == "skip":
            return "input"
        return "output" if what == "output" else "input"

    def _check(self, path, stage, call):
        """None if the event can wait for its hook, else (type, message)."""
        if path not in self.modules:
            return ("AttributeError", f"the model has no submodule '{path}'")
        if self.current == (path, stage, call):
            return None
        passed = (self.finished if stage == "output" else self.started).get(path, 0) > call
        if passed:
            name = f"{self.receiver}.{path}" if path else self.receiver
            return ("ValueError",
                    f"{name} was requested after it ran (call {call}, {stage}): "
                    f"access modules in the order the model runs them")
        return None

    def drive(self, m, reply=None):
        """Processes m's messages (after sending it `reply`, if any) until it
        waits on a hook or a barrier, or ends; and those of every mediator a
        barrier releases meanwhile, one after another, never one inside
        another (a worker's barriers must not deepen the host's stack)."""
        self._ready.append((m, reply))
        if self._driving:
            return
        self._driving = True
        try:
            while self._ready:
                m, reply = self._ready.popleft()
                if not m.done and (reply is None or self._reply(m, reply)):
                    self._drive_one(m)
        finally:
            self._driving = False
            self._ready.clear()  # (empty, unless something raised)

    def _drive_one(self, m):
        """Drives m alone. Its link is charged the host's time on its
        messages, less what the link charged as it went (a worker's waits,
        a FAST mediator's turns and module calls)."""
        while not m.done:
            try:
                msg = m.link.recv()
            except (WorkerError, MediatorStopped) as e:
                self._fail(m, e)
                return
            begun, charged = time.monotonic(), m.link.charged_s
            try:
                go_on = self._handle_alone(m, msg)
            finally:
                m.link.charge(max(0.0, time.monotonic() - begun - (m.link.charged_s - charged)))
            if not go_on:
                return

    def _handle_alone(self, m, msg):
        """_handle, where a fault of ivc's own fails m alone: the trace's
        other mediators keep their results."""
        try:
            return self._handle(m, msg)
        except Exception as e:  # noqa: BLE001
            log.exception("ivc: mediator %d's %r message", m.index, msg[0])
            self._fail(m, MediatorError(f"ivc failed on the mediator's {msg[0]!r} message: "
                                        f"{type(e).__name__}: {e}"))
            return False

    def _handle(self, m, msg):
        """Acts on one of m's messages; False when m stops being driven (it
        ended, failed, or waits)."""
        kind = msg[0]
        try:
            self._apply_mutations(m, msg[-1] if kind != "need" else [])
        except (WorkerError, MediatorStopped) as e:
            self._fail(m, e)
            return False
        if kind == "end":
            try:
                # A FAST mediator's saves are copied in the host's memory:
                # as much as the trace's budget has left (views of one
                # tensor are each copied whole), kept charged to it.
                left = getattr(m.link, "memory_left", None)
                need = copied_bytes(msg[1]) if left is not None else 0
                if left is not None and need > max(left, 0):
                    raise ValueError(f"copying them would take {need} bytes, more than the "
                                     f"{max(left, 0)} left of the trace's fast_memory_bytes")
                m.saves = own(msg[1])
                if left is not None:
                    m.link.keep(need)
            except ValueError as e:  # what the mediator saved
                self._fail(m, MediatorError(f"saves: {e}"))
                return False
            except Exception as e:  # noqa: BLE001
                self._fail(m, ProtocolViolation(f"saves: {e}"))
                return False
            m.done = m.clean = True
            return False
        if kind == "exception":
            m.error = rebuild_exception(msg[1], msg[2], msg[3], msg[4], m, self.trace_index)
            m.done = True
            return False
        if kind == "log":
            m.log_bytes += len(msg[1])
            if m.log_bytes <= MAX_LOG_BYTES:
                m.logs.append(msg[1])
            elif m.log_bytes - len(msg[1]) <= MAX_LOG_BYTES:
                m.logs.append(f"[ivc: logs of mediator {m.index} cut at {MAX_LOG_BYTES} bytes]")
            return bool(self._reply(m, ("ok",)))
        if kind == "stop":
            self.stopped = True
            return bool(self._reply(m, ("ok",)))
        if kind == "barrier":
            m.barriers += 1
            if m.barriers > MAX_BARRIERS:
                self._fail(m, ProtocolViolation(f"more than {MAX_BARRIERS} barriers in one trace"))
            else:
                self._barrier(m, msg[1], msg[2], msg[3])
            return False
        if kind == "call":
            return bool(self._call_module(m, msg[1], msg[2], msg[3]))
        # request, swap, skip
        path = msg[1]
        if kind == "request" and msg[2] == "param":
            param = self.params.get(path)
            if param is None:
                ok = self._error(m, "AttributeError", f"the model has no parameter '{path}'")
            else:
                copy = param.detach().clone()
                # A FAST mediator keeps the copy in the host's memory.
                if (host := getattr(m.link, "charge_host", None)) is not None:
                    host(0.0, copy.numel() * copy.element_size())
                ok = self._deliver(m, copy, live=False)
            return bool(ok)
        if kind == "skip":
            what, call, payload = "skip", msg[2], msg[3]
        else:
            what, call = msg[2], msg[3]
            payload = msg[4] if kind == "swap" else None
        stage = self._stage(kind, what)
        problem = self._check(path, stage, call)
        if problem is not None:
            return bool(self._error(m, *problem))
        event = (kind, path, stage, call, (what, payload))
        if self.current == (path, stage, call):
            return bool(self._serve(m, event))
        self._park(m, event)
        return False

    def _call_module(self, m, path, args, kwargs):
        """Runs a submodule on m's values, outside the trace: its hooks see
        nothing, and the result is m's own."""
        module = self.modules.get(path)
        if module is None:
            return self._error(m, "AttributeError", f"the model has no submodule '{path}'")
        problem = module_call_problem(module, args, kwargs, self.positions)
        if problem is not None:
            return self._error(m, *problem)
        # A FAST mediator's budgets count the call, as its turns count its
        # own work (a worker's count all the host does for it already).
        host = getattr(m.link, "charge_host", None)
        began, resident = time.monotonic(), _core.resident_bytes() if host else 0
        calling, self._calling = self._calling, True
        try:
            out = module(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the mediator's values, the mediator's error
            return self._error(m, type(e).__name__, str(e))
        finally:
            self._calling = calling
            if host:
                host(time.monotonic() - began, _core.resident_bytes() - resident)
        return self._deliver(m, unalias(out, self.owned), live=False)

    def _serve(self, m, event):
        """Answers a pending event at its hook; False if m failed."""
        kind, path, stage, call, (what, payload) = event
        start, count = m.rows
        st = self.state
        if kind == "request":
            if what == "output":
                st.out = unalias(st.out, self.owned)
            else:
                st.args, st.kwargs = unalias((st.args, st.kwargs), self.owned)
            if what == "output":
                origin = st.out
            elif what == "input":
                if not st.args:
                    return self._error(m, "ValueError", f"{path} was called without positional "
                                                        "arguments; use .inputs")
                origin = st.args[0]
            else:
                origin = (st.args, st.kwargs)
            value = narrow(origin, start, count, self.total)
            if m.tier == "fast" and torch.is_grad_enabled():
                name = f"{self.receiver}.{path}" if path else self.receiver
                value = watched(value, origin, (start, count), f"{name}.{what}")
            return self._deliver(m, value)
        try:
            if kind == "swap" and what == "output":
                st.out = merge(st.out, payload, start, count, self.total, f"{path}.output")
            elif kind == "swap":
                if not st.args:
                    raise ValueError(f"{path} was called without positional arguments")
                first = merge(st.args[0], payload, start, count, self.total, f"{path}.input")
                st.args = (first,) + tuple(st.args[1:])
            elif any(other is m for other, _ in st.skips):
                # One value per mediator and call: each is kept until the
                # module returns, so repeats would hold memory without end.
                raise ValueError(f"{path} was skipped already in this call")
            else:
                st.skips.append((m, own(payload)))
        except Exception as e:  # noqa: BLE001 - a bad value fails its mediator, not the model
            return self._error(m, type(e).__name__, str(e))
        return self._reply(m, ("ok",))

    def _barrier(self, m, name, participants, exports):
        # Only names another mediator reads and nothing supplied: a worker
        # can neither grow this table nor rebind a caller's value.
        sizes = {key: copied_bytes(value) for key, value in exports.items() if key in m.exports}
        limit = getattr(m.link, "export_limit", None)
        if limit is not None:
            # The host's copies of one worker's exports, as much as its arena
            # may hold at once: a new name at each barrier would keep them all.
            held = sum(n for key, (who, n) in self.exported_by.items()
                       if who is m and key not in sizes) + sum(sizes.values())
            if held > limit:
                self._fail(m, MediatorError(
                    f"its barrier exports would keep {held} bytes in the host, more than its "
                    f"arena may hold (arena_max_bytes, {limit})"))
                return
        waiting = self.barriers.setdefault(name, [])
        waiting.append(m)
        m.pending = ("barrier", name, None, None, participants)
        for key, nbytes in sizes.items():
            self.exports[key] = own(exports[key])
            self.exported_by[key] = (m, nbytes)
            if (keep := getattr(m.link, "keep", None)) is not None:
                keep(nbytes)  # the host's copy, kept
        if len(waiting) < participants:
            return
        del self.barriers[name]
        for p in sorted(waiting, key=lambda p: p.index):
            if p.done:
                continue
            self._unpark(p)
            given = {k: v for k, v in self.exports.items() if k in p.unbound}
            # Of the kind the plan's verdict assumed, as a caller's value must be.
            wrong = [k for k, v in given.items()
                     if k in p.plan.free_types and not is_free_kind(v, p.plan.free_types[k])]
            if wrong:
                self._fail(p, MediatorError(
                    f"a barrier gave {wrong[0]!r} a {type(given[wrong[0]]).__name__}, where the "
                    f"plan's verdict assumed a {p.plan.free_types[wrong[0]]}"))
            else:
                # Released and driven in turn: a FAST mediator's turn lasts
                # from the reply until its next message.
                self.drive(p, ("release", given))

    # -- hooks ------------------------------------------------------------
    def _serve_hook(self, path, stage, call):
        self.current = (path, stage, call)
        progress = True
        while progress:
            progress = False
            for m in self.meds:
                ev = m.pending
                if ev is None or m.done or ev[0] == "barrier":
                    continue
                if ev[1] == path and ev[2] == stage and ev[3] == call:
                    self._unpark(m)
                    if self._serve(m, ev):
                        self.drive(m)
                    progress = True
        self.current = None

    def _wrap(self, path, module, owner):
        original = module.forward

        def forward(*args, **kwargs):
            if threading.get_ident() != owner or self._calling:
                # Another thread's plain call of the model (a server's other
                # requests), or a mediator's call of a module: it is not
                # this trace's to see or change.
                return original(*args, **kwargs)
            call = self.started.get(path, 0)
            self.started[path] = call + 1
            st = None
            if self.waiting.get(path):
                st = _HookState(args, kwargs)
                self.state = st
                self._serve_hook(path, "input", call)
                args, kwargs = st.args, st.kwargs
                if self.stopped:
                    raise _EarlyStop()
            whole = st is not None and len(st.skips) == 1 and st.skips[0][0].rows[1] == self.total
            if whole and not self._fits(module, path, args, kwargs, *st.skips[0]):
                st.skips, whole = [], False
            if whole:
                out = st.skips[0][1]
            else:
                out = original(*args, **kwargs)
                if st is not None:
                    for m, value in st.skips:
                        try:
                            out = merge(out, value, *m.rows, self.total, f"{path} skip value")
                        except (TypeError, ValueError) as e:
                            self._fail(m, MediatorError(f"skip of {path}: {e}"))
            if self.waiting.get(path):
                st = st or _HookState(args, kwargs)
                st.out = out
                self.state = st
                self._serve_hook(path, "output", call)
                out = st.out
            self.finished[path] = call + 1
            if self.stopped:
                raise _EarlyStop()
            return out

        return forward

    def _fits(self, module, path, args, kwargs, m, value):
        """Whether the value of a skip that replaces the whole output may
        stand for it: no larger than the module could make of its inputs
        (the rest of the forward runs on it, on the host). If not, m fails
        and the module runs."""
        problem = skip_problem(module, args, kwargs, value)
        if problem is not None:
            self._fail(m, MediatorError(f"skip of {path}: {problem}"))
        return problem is None

    def install(self):
        """Wraps every module's forward, for calls from this thread only.
        What was wrapped is recorded as it goes, so that uninstall() undoes
        a wrapping that failed half-way (a module that refuses the
        attribute)."""
        self._saved = []
        owner = threading.get_ident()
        for path, module in self.modules.items():
            had = "forward" in module.__dict__
            old = module.__dict__.get("forward")
            module.forward = self._wrap(path, module, owner)
            self._saved.append((module, had, old))

    def uninstall(self):
        for module, had, old in self._saved:
            if had:
                module.forward = old
            else:
                del module.forward
        self._saved = []

    # -- the trace --------------------------------------------------------
    def start(self, jobs, inputs):
        """Starts the mediators of a forward on `inputs` (the model's
        positional arguments)."""
        self.positions = max([1] + [t.numel() for t in _tensors_in(inputs)])
        # Workers start together (their prefixes run in parallel); a FAST
        # mediator starts only when its turn comes, since it shares the
        # host's interpreter (and random generator) with the others.
        for fast_turn in (False, True):
            for m, job in zip(self.meds, jobs):
                if (m.tier == "fast") != fast_turn:
                    continue
                m.exports = frozenset(job.get("exports", ()))
                m.unbound = frozenset(job.get("unbound", ()))
                try:
                    m.link.start(job)
                except (WorkerError, MediatorStopped) as e:
                    self._fail(m, e)
                if fast_turn:
                    self.drive(m)
        for m in self.meds:
            if m.tier != "fast":
                self.drive(m)

    def finish(self, model_error=None):
        """After the forward: every mediator still waiting is told why and
        driven to its end."""
        progress = True
        while progress:
            progress = False
            for m in self.meds:
                if m.done or m.pending is None:
                    continue
                event = self._unpark(m)
                if model_error is not None:
                    reply = ("cancel", "the model raised an exception")
                elif self.stopped:
                    reply = ("cancel", "the trace was stopped")
                elif event[0] == "barrier":
                    reply = ("error", "RuntimeError",
                             f"barrier '{event[1]}' waited for {event[4]} mediators, but not "
                             "all of them reached it")
                else:
                    _, path, stage, call, (what, _) = event
                    name = f"{self.receiver}.{path}" if path else self.receiver
                    reply = ("error", "ivc.NotReached",
                             f"{name}.{'skip()' if what == 'skip' else what} was never reached: "
                             f"the model finished without calling {path or 'it'} "
                             f"(call {call})")
                if self._reply(m, reply):
                    self.drive(m)
                progress = True
            for m in self.meds:
                if not m.done and m.pending is None:
                    # Running but not waiting: only possible after a failure
                    # in drive(); make sure it ends.
                    self.drive(m)

    def run(self, args, kwargs):
        try:
            try:
                self.install()
                output = self.model(*args, **kwargs)
            except _EarlyStop:
                output = None
            except BaseException as e:
                self.finish(model_error=e)
                raise
        finally:
            self.uninstall()
        self.finish()
        return output
