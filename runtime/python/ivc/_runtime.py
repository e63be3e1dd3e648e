"""The Runtime: runs a plan's trace against a model, FAST mediators in host
threads, ISOLATE mediators in pooled ivc-workers, REJECT never."""

import collections
import dataclasses
import itertools
import logging
import math
import secrets
import threading
import types
import warnings
import weakref

import torch

from . import _build_info, _core, _loops, _mediator, _protocol, _tensors
from ._errors import IvcError, PlanError, RejectedError, SandboxUnavailable, WorkerCrashed
from ._interleaver import Interleaver, MediatorState, storage_bytes
from ._links import FailedLink, FastLink, MemoryBudget, TimeBudget, WorkerLink, stuck_fast
from ._plan import load_plan

log = logging.getLogger("ivc.runtime")

# One lock per model, held while a trace runs on it (Runtime._model_lock).
_model_locks = weakref.WeakKeyDictionary()
_model_locks_guard = threading.Lock()

TRANSPORTS = ("shared-memory", "cuda-ipc")
BLOCK_FLAGS = ("file_write", "file_read", "subprocess", "network", "ctypes", "import", "exec")
MAX_CHANNEL_SPIN_US = _core.MAX_CHANNEL_SPIN_US


@dataclasses.dataclass
class SandboxConfig:
    """What an ISOLATE worker may do (docs/runtime.md, "Sandbox config").
    Workers are pooled per configuration: two configurations never share a
    process."""

    block: dict = dataclasses.field(default_factory=lambda: dict.fromkeys(BLOCK_FLAGS, True))
    import_allowlist: list = dataclasses.field(default_factory=lambda: ["torch", "math"])
    preload: list = dataclasses.field(default_factory=lambda: ["torch", "math"])
    address_space_bytes: int = 16 << 30
    cpu_seconds: int = 600
    open_files: int = 64
    file_size_bytes: int = 0
    trace_timeout_s: float = 30.0
    start_timeout_s: float = 60.0
    download_bytes: int = 64 << 20
    upload_bytes: int = 16 << 20
    arena_max_bytes: int = 8 << 30
    max_frame_bytes: int = 16 << 20
    # microseconds each side polls its channel before it sleeps (docs/runtime.md)
    channel_spin_us: int = 50
    torch_threads: int = 0  # 0: the host's torch.get_num_threads()
    max_jobs_per_worker: int = 10000
    # workers one trace may hold at once (one per ISOLATE mediator; each its
    # own limits, so this bounds what one request takes)
    max_workers_per_trace: int = 16
    seccomp_trace: bool = False
    allow_jit: bool = True  # executable memory for oneDNN; False: W^X, oneDNN off
    # the user a worker started as root runs as once locked down (nobody; 0 keeps root)
    run_as_uid: int = 65534
    # "shared-memory" (CPU tensors) or "cuda-ipc" (also tensors on a GPU, through a
    # device arena on cuda_device; docs/runtime.md, "Transports")
    transport: str = "shared-memory"
    cuda_device: int = 0
    allow_isolate: bool = True  # the policy's allow-isolate
    policy_name: str = ""
    policy_fingerprint: str = ""  # set: plans must come from this policy

    @classmethod
    def from_policy(cls, policy=None, filename="", **overrides):
        """The worker side of an analyzer policy (docs/policy.md): block
        flags, import allowlist, preload list, allow-isolate, fingerprint.
        `policy`: a preset name or a policy file; None: found from
        `filename` as the analyzer does. Other fields from `overrides`."""
        p = _core.policy_sandbox(policy or "", filename)
        fields = dict(block=dict(p["block"]), import_allowlist=list(p["import_allowlist"]),
                      preload=list(p["preload"]) or ["torch"],
                      allow_isolate=bool(p["allow_isolate"]), policy_name=p["name"],
                      policy_fingerprint=p["fingerprint"])
        fields.update(overrides)
        return cls(**fields)

    def _check_types(self):
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type is list:
                ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
            elif f.type is dict:
                ok = isinstance(value, dict) and all(isinstance(v, bool) for v in value.values())
            elif f.type is float:
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            elif f.type is int:
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, f.type)
            if not ok:
                what = {list: "a list of str", dict: "a dict of bool"}.get(f.type, f.type.__name__)
                raise TypeError(f"SandboxConfig.{f.name} must be {what}, not {value!r}"[:200])

    def to_wire(self):
        """The dict the host library and the worker read (SandboxConfig.h)."""
        self._check_types()
        if self.transport not in TRANSPORTS:
            raise ValueError(f"transport must be one of {TRANSPORTS}, not {self.transport!r}")
        unknown = set(self.block) - set(BLOCK_FLAGS)
        if unknown:
            raise ValueError(f"unknown block flags: {sorted(unknown)}")
        if not 0 <= int(self.channel_spin_us) <= MAX_CHANNEL_SPIN_US:
            raise ValueError(f"channel_spin_us must be in 0..{MAX_CHANNEL_SPIN_US}, "
                             f"not {self.channel_spin_us}")
        return {
            "block": {k: bool(self.block.get(k, True)) for k in BLOCK_FLAGS},
            "import_allowlist": list(self.import_allowlist),
            "preload": list(self.preload),
            "rlimits": {"address_space": int(self.address_space_bytes),
                        "cpu_seconds": int(self.cpu_seconds),
                        "open_files": int(self.open_files),
                        "file_size": int(self.file_size_bytes)},
            "arena": {"download": int(self.download_bytes), "upload": int(self.upload_bytes),
                      "max": int(self.arena_max_bytes)},
            "trace_timeout_ms": int(self.trace_timeout_s * 1000),
            "start_timeout_ms": int(self.start_timeout_s * 1000),
            "max_frame_bytes": int(self.max_frame_bytes),
            "channel_spin_us": int(self.channel_spin_us),
            "torch_threads": int(self.torch_threads or torch.get_num_threads()),
            "max_jobs": int(self.max_jobs_per_worker),
            "seccomp_trace": bool(self.seccomp_trace),
            "allow_jit": bool(self.allow_jit),
            "run_as_uid": int(self.run_as_uid),
            "transport": self.transport,
            "cuda_device": int(self.cuda_device),
        }

    def encoded(self):
        return _core.encode(self.to_wire(), _protocol.no_tensors)


class Barrier:
    """Pass as the value of a free name to give mediators a shared
    `barrier()` for `participants` of them (nnsight's tracer.barrier)."""

    def __init__(self, participants):
        self.participants = _protocol.check_participants(participants)


def _gathered(states):
    """Names saved by more than one mediator, each of which the plan starts
    from an empty list or dict it pins (`acts = []` before the trace or
    before its invokes): in nnsight the invokes fill one (`acts.append(
    h.save())` in each), here each fills a copy, which the result joins, in
    mediator order. Another mediator that saves the name joins in only with
    an empty one (the trace body's `acts = nnsight.list().save()`, which the
    invokes start from): one that filled a list of its own has its own."""
    savers = collections.defaultdict(list)
    for s in states:
        for name, value in s.saves.items():
            pinned = name in s.plan.starts_empty
            empty = isinstance(value, (list, dict)) and not value
            savers[name].append("pinned" if pinned else "empty" if empty else None)
    return {n for n, kinds in savers.items()
            if len(kinds) > 1 and "pinned" in kinds and None not in kinds}


def _gather(values):
    """One list of the lists, one dict of the dicts (later keys win), in
    one pass; of anything else, the last."""
    if all(isinstance(v, list) for v in values):
        return list(itertools.chain.from_iterable(values))
    if all(isinstance(v, dict) for v in values):
        joined = {}
        for v in values:
            joined.update(v)
        return joined
    return values[-1]


class MediatorResult:
    def __init__(self, state):
        self.index = state.index
        self.turn = state.turn
        self.tier = state.tier
        self.saves = state.saves
        self.logs = state.logs
        self.error = state.error
        self.where = state.link.description

    def __repr__(self):
        status = f"error={self.error!r}" if self.error else f"saves={sorted(self.saves)}"
        turn = "" if self.turn is None else f" turn {self.turn}"
        return f"<MediatorResult {self.index}{turn} {self.tier} {status}>"


class TraceResult:
    """Saved values by name (later mediators win a name clash, as local
    variables would in the trace body, but for a gathered list or dict, see
    _gathered), per-mediator results, logs, and the model's output."""

    def __init__(self, states, output):
        self.mediators = [MediatorResult(s) for s in states]
        self.output = output
        self.saves = {}
        self.logs = []
        gathered = _gathered(states)
        parts = collections.defaultdict(list)
        for r in self.mediators:
            for name, value in r.saves.items():
                if name in gathered:
                    parts[name].append(value)
                else:
                    self.saves[name] = value
            self.logs.extend(r.logs)
        for name, values in parts.items():
            self.saves[name] = _gather(values)
        self.errors = [r.error for r in self.mediators if r.error is not None]

    def __getitem__(self, name):
        return self.saves[name]

    def __contains__(self, name):
        return name in self.saves

    def keys(self):
        return self.saves.keys()

    def __repr__(self):
        return f"<TraceResult saves={sorted(self.saves)} errors={len(self.errors)}>"


def _model_config(model):
    """The numbers of the model's configuration (`model.config.n_layer`),
    aliases included (`num_hidden_layers`), or None when it has none."""
    config = getattr(model, "config", None)
    to_dict = getattr(config, "to_dict", None)
    try:
        raw = to_dict() if callable(to_dict) else vars(config)
    except Exception:  # noqa: BLE001 - no configuration a trace can read
        return None
    if not isinstance(raw, dict):
        return None
    values = {name: value for name, value in raw.items()
              if isinstance(name, str) and name.isidentifier() and not name.startswith("_") and
              type(value) in (int, float, bool, type(None))}
    aliases = getattr(config, "attribute_map", None)
    for alias, name in (aliases.items() if isinstance(aliases, dict) else ()):
        if isinstance(alias, str) and alias.isidentifier() and name in values:
            values.setdefault(alias, values[name])
    return values


def _model_tree(model):
    """Submodules by path, parameters and buffers by path, and the numbers
    of the configuration."""
    modules = dict(model.named_modules())
    params = {}
    for path, module in modules.items():
        prefix = path + "." if path else ""
        for name, p in module._parameters.items():
            if p is not None:
                params[prefix + name] = p
        for name, b in module._buffers.items():
            if b is not None:
                params[prefix + name] = b
    paths = [p for p in modules if p]
    config = _model_config(model)
    numbers = tuple(sorted(config.items())) if config is not None else None
    key = f"{id(model):x}-{hash((tuple(paths), tuple(params), numbers))}"
    return key, modules, paths, params, config


# The elements the analyzer counts a caller's tensor as, at most
# (analyzer/lib/passes/rules/CostModel.h, CallersTensorElements).
CALLERS_TENSOR_ELEMENTS = 1 << 24


def _guard_broken(m, values):
    """Why the caller's values break what the plan's FAST verdict assumed of
    them (`guards`), or None. Exact types: a subclass of int or float is
    code of the caller's, not a number."""
    # The analyzer counts a caller's tensor as at most what the channel
    # carries (CallersTensorElements); in process nothing else holds it so.
    for name in m.free_names:
        for t in _mediator._tensors_in(values.get(name)):
            if t.numel() > CALLERS_TENSOR_ELEMENTS:
                return (f"the caller's {name!r} holds a tensor of {t.numel()} elements, more "
                        f"than the {CALLERS_TENSOR_ELEMENTS} a FAST verdict assumes")
    for name, (kind, most) in m.guards.items():
        v = values.get(name)
        number = type(v) is int or (type(v) is float and math.isfinite(v))
        if kind == "number" and not (number and abs(v) <= most):
            return f"the caller's {name!r} is not an int or a float of at most {most}"
        # An empty dimension counts as 1: a 2^40 by 0 tensor holds nothing,
        # but `torch.eye(v.shape[0])` of it would not.
        if kind == "tensor" and not (type(v) is torch.Tensor and
                                     math.prod(max(d, 1) for d in v.shape) <= most):
            return (f"the caller's {name!r} is not a tensor of at most {most} elements "
                    f"(an empty dimension as 1)")
        if kind == "number_or_tensor" and not (number or isinstance(v, torch.Tensor)):
            return f"the caller's {name!r} is not an int, a float or a tensor"
    return None


def _tiers(trace, units, overrides, values, tenant):
    """Each unit's tier: the override ({mediator index: tier}), or the
    plan's, which is ISOLATE when the caller's values (and the unit's loop
    names) break its guards, or while abandoned FAST calls hold the host
    (_links.stuck_fast)."""
    overrides = {} if overrides is None else overrides
    if not isinstance(overrides, dict):
        raise PlanError(f"tiers must be a dict {{mediator index: tier}}, not "
                        f"{type(overrides).__name__}")
    indices = {m.index for m in trace.mediators}
    for i, tier in overrides.items():
        if i not in indices:
            raise PlanError(f"tiers: trace {trace.index} has no mediator {i!r} "
                            f"(it has {sorted(indices)})")
        if tier not in ("fast", "isolate"):
            raise PlanError(f"tiers may only be overridden to 'fast' or 'isolate', not {tier!r}")
    tiers = []
    for u in units:
        m = u.mediator
        tier = overrides.get(m.index, m.tier)
        why = None
        if tier == "fast" and m.index not in overrides:
            why = _guard_broken(m, {**values, **u.names}) or stuck_fast(tenant)
        if why:
            log.info("ivc: mediator %d%s of trace %d runs ISOLATE: %s", m.index,
                     "" if u.turn is None else f" (turn {u.turn})", trace.index, why)
            tier = "isolate"
        tiers.append(tier)
    return tiers


def _batch(inputs):
    """Concatenates each invoke's positional inputs along dim 0."""
    if not inputs:
        raise PlanError("nothing to run: every loop of invokes has no turns")
    per = [tuple(x) if isinstance(x, (tuple, list)) else (x,) for x in inputs]
    arity = {len(p) for p in per}
    if len(arity) != 1 or not per[0]:
        raise PlanError("every invoke must pass the same number of positional inputs")
    rows, start = [], 0
    for p in per:
        if not isinstance(p[0], torch.Tensor) or p[0].dim() == 0:
            raise PlanError("the first input of every invoke must be a batched tensor")
        rows.append((start, p[0].shape[0]))
        start += p[0].shape[0]
    args = []
    for j in range(arity.pop()):
        column = [p[j] for p in per]
        tensors = sum(isinstance(c, torch.Tensor) for c in column)
        if tensors == len(column):
            try:
                args.append(torch.cat(column) if len(column) > 1 else column[0])
            except RuntimeError as e:
                raise PlanError(f"input {j} of the invokes cannot be batched: {e}") from None
        elif tensors == 0 and all(c == column[0] for c in column):
            args.append(column[0])
        else:
            raise PlanError(f"input {j} differs between invokes and is not a tensor")
    return tuple(args), rows, start


def _loop_lookup(trace, values):
    """What a loop of invokes iterates: a constant the plan pins (the
    runtime binds those, never the caller), else the caller's value."""
    pinned = {n: src for m in trace.mediators
              for n, src in (*m.definitions, *m.function_definitions)}

    def lookup(name):
        if name in pinned:
            return _loops.pinned_value(name, pinned[name])
        if name in values:
            return values[name]
        raise PlanError(f"no value given for {name!r}, which a loop of invokes iterates")
    return lookup


def loop_turns(plan, values=None, *, trace=0, most=_loops.MAX_TURNS):
    """For each invoke the plan runs in a loop, the names each of its turns
    binds, {mediator index: [{name: value}, ...]}, counted as Runtime.run
    counts them: what a caller needs to make one input per turn (for
    `tracer.invoke(prompt)`, the turn's `prompt`). A PlanError past `most`
    turns."""
    t = load_plan(plan).trace(trace)
    lookup = _loop_lookup(t, dict(values or {}))
    return {m.index: _loops.turns(m.loop, lookup, most=most)
            for m in t.mediators if m.loop is not None}


class Runtime:
    """Executes plans. One per process is typical; it owns the worker pool.

    The sandbox audit (the same canaries as `ivc audit`) runs when the
    runtime starts; if it fails, ISOLATE mediators are refused unless
    `unsafe_allow_failed_audit=True`, which is logged loudly.
    """

    def __init__(self, sandbox=None, *, pool_size=2, zygote=True, worker_path=None,
                 fast_timeout_s=30.0, fast_trace_timeout_s=120.0, fast_memory_bytes=4 << 30,
                 unsafe_allow_failed_audit=False, worker_stderr=None, max_idle_workers=8):
        self.sandbox = sandbox or SandboxConfig()
        # A bad configuration fails here (the host library's own checks
        # included), not when the first worker starts.
        _core.sandbox_config_check(self.sandbox.encoded())
        # FAST mediators run under the sandbox's policy too, as a second line
        # behind the analyzer (docs/threat-model.md, "FAST").
        self._fast_guard = _core.FastGuard(self.sandbox.to_wire())
        self._closed = False
        self.fast_timeout_s = fast_timeout_s
        if fast_trace_timeout_s is not None and (
                isinstance(fast_trace_timeout_s, bool) or
                not isinstance(fast_trace_timeout_s, (int, float)) or
                not fast_trace_timeout_s > 0):
            raise ValueError("fast_trace_timeout_s must be None or a positive number of seconds")
        self.fast_trace_timeout_s = fast_trace_timeout_s
        if fast_memory_bytes is not None:
            if isinstance(fast_memory_bytes, bool) or not isinstance(fast_memory_bytes, int) \
                    or fast_memory_bytes < 0:
                raise ValueError("fast_memory_bytes must be None or a non-negative int")
            _core.resident_bytes()  # where it cannot be measured, fail here
        self.fast_memory_bytes = fast_memory_bytes
        self.worker_path = worker_path or _build_info.WORKER_PATH
        self.python_path = list(_build_info.WORKER_PYTHON_PATH)
        self._pool = _core.Pool(self.worker_path, self.python_path, max_idle=pool_size,
                                use_zygote=zygote,
                                stderr_fd=-1 if worker_stderr is None else worker_stderr,
                                max_idle_total=max(max_idle_workers, pool_size))
        self._trees = collections.OrderedDict()  # worker id -> tree keys it has (LRU)
        self._trees_guard = threading.Lock()
        _mediator.TREE_CACHE_LIMIT = 256
        passed, lines, error = _core.run_audit(self.worker_path, self.python_path,
                                               allow_jit=self.sandbox.allow_jit)
        self.audit_passed = passed
        self.audit_lines = lines
        self.audit_error = error
        self.unsafe = False
        if not passed:
            detail = error or "; ".join(l for l in lines if l.startswith("FAILED"))
            if unsafe_allow_failed_audit:
                self.unsafe = True
                msg = ("IVC SANDBOX AUDIT FAILED, AND ISOLATED EXECUTION IS ENABLED ANYWAY "
                       f"(unsafe_allow_failed_audit=True): {detail}")
                log.critical(msg)
                warnings.warn(msg, RuntimeWarning, stacklevel=2)
            else:
                log.error("ivc sandbox audit failed; isolated execution is refused: %s", detail)

    # -- pool -------------------------------------------------------------
    def prewarm(self, workers=0, tenant=""):
        """Starts the zygote (and `workers` idle workers) now."""
        self._require_sandbox()
        self._pool.start_zygote(self.sandbox.encoded())
        held = [self._pool.acquire(self.sandbox.encoded(), tenant) for _ in range(workers)]
        for w in held:
            self._pool.release(w, True)

    def stats(self):
        s = dict(self._pool.stats())
        s["idle"] = self._pool.idle()
        s["watchdog_fired"] = self._pool.watchdog_fired()
        return s

    def close(self):
        self._closed = True
        self._pool.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _require_sandbox(self):
        if not self.audit_passed and not self.unsafe:
            raise SandboxUnavailable(
                "isolated execution is refused: the sandbox audit failed "
                f"({self.audit_error or 'a canary was not refused'})", self.audit_lines)

    def _check_policy(self, plan):
        """A plan judged under one policy must not run under another."""
        want = self.sandbox.policy_fingerprint
        policy = plan.data.get("policy")
        have = policy.get("fingerprint") if isinstance(policy, dict) else None
        if want and have != want:
            name = policy.get("name") if isinstance(policy, dict) else None
            raise PlanError(f"the plan was made under policy {name!r} ({have}), but this runtime "
                            f"enforces '{self.sandbox.policy_name}' ({want})")

    @staticmethod
    def _model_lock(model):
        # Process-wide: a trace wraps the model's modules, so two runtimes
        # must not run on one model at once either.
        with _model_locks_guard:
            lock = _model_locks.get(model)
            if lock is None:
                lock = _model_locks[model] = _ModelLock()
            return lock

    # -- running ----------------------------------------------------------
    def run(self, plan, model, inputs, values=None, *, trace=0, tenant="", raise_errors=True,
            tiers=None, seed=None):
        """Runs trace `trace` of `plan` on `model`.

        inputs: one per mediator (invoke), each a tensor or a tuple of
            positional tensors; they are batched along dim 0.
        values: the free names' values (tensors, numbers, strings, ...).
        tenant: workers are never shared between tenants.
        tiers: override tiers, e.g. {0: "isolate"} (tests, benchmarks);
            "reject" cannot be overridden.
        seed: mediator i draws random numbers from a generator seeded with
            seed + i, in either tier; None picks a fresh seed.
        Returns a TraceResult; if a mediator failed and raise_errors, raises
        its error (the result is on the exception as `ivc_result`).
        """
        if self._closed:
            raise IvcError("this Runtime is closed")
        plan = load_plan(plan)
        t = plan.trace(trace)
        values = dict(values or {})
        rejected = [m for m in t.mediators if m.tier == "reject"]
        if rejected:
            reasons = [r for m in rejected for r in m.reasons]
            text = "; ".join(f"{r.get('code', '?')}: {r.get('message', '')}" for r in reasons
                             if isinstance(r, dict))
            raise RejectedError(f"trace {t.index} has a rejected mediator "
                                f"({', '.join(str(m.index) for m in rejected)}); nothing ran"
                                + (f": {text}" if text else ""), reasons or plan.diagnostics)
        if not isinstance(tenant, str):
            raise TypeError(f"tenant must be a str, not {type(tenant).__name__}")
        if not t.mediators:
            raise PlanError("the trace has no mediators")
        units = _loops.expand(t, list(inputs), _loop_lookup(t, values))
        tier_of = _tiers(t, units, tiers, values, tenant)
        if not isinstance(model, torch.nn.Module):
            raise TypeError(f"model must be a torch.nn.Module, not {type(model).__name__}")
        self._check_policy(plan)
        if "isolate" in tier_of:
            if not self.sandbox.allow_isolate:
                raise SandboxUnavailable(f"policy '{self.sandbox.policy_name}' does not allow "
                                         "isolated execution")
            isolated = tier_of.count("isolate")
            if isolated > self.sandbox.max_workers_per_trace:
                raise PlanError(f"trace {t.index} runs {isolated} mediators ISOLATE, each in a "
                                f"worker of its own, over the sandbox's max_workers_per_trace "
                                f"({self.sandbox.max_workers_per_trace}); split it into "
                                f"several traces")
            self._require_sandbox()
        args, rows, total = _batch([u.input for u in units])
        key, modules, paths, params, config = _model_tree(model)
        tree = (key, paths, sorted(params), config)
        jobs = self._jobs(plan, t, units, values, tier_of)
        if seed is None:
            seed = secrets.randbits(62)
        for i, job in enumerate(jobs):
            job["seed"] = (int(seed) + i) % (1 << 63)

        memory = None if self.fast_memory_bytes is None else MemoryBudget(self.fast_memory_bytes)
        clock = None if self.fast_trace_timeout_s is None else TimeBudget(self.fast_trace_timeout_s)
        with self._model_lock(model):
            states = []
            for i, (u, tier, r) in enumerate(zip(units, tier_of, rows)):
                if tier == "fast":
                    link = FastLink(self._fast_guard, self.fast_timeout_s,
                                    self.sandbox.channel_spin_us, memory, tenant, clock)
                else:
                    link = self._worker_link(tenant)
                    if isinstance(link, WorkerLink):
                        self._tree_job(jobs[i], tree, link.worker)
                states.append(MediatorState(u.mediator.index, u.mediator, link, r, u.turn))
            for s, job in zip(states, jobs):
                if s.tier == "fast":
                    self._tree_job(job, tree, None)
                    _clone_tensors(job["values"])
            grad = any(m.differentiate for m in t.mediators)
            inter = Interleaver(model, states, total, t.receiver, t.index, modules, params)
            # A backward pass reaches the shared model's parameters: their
            # gradients are put back as they were (backward accumulates into
            # existing ones in place, hence the copy), not kept for the next trace.
            grads = [(p, None if p.grad is None else p.grad.clone()) for p in params.values()
                     if grad and isinstance(p, torch.nn.Parameter)]
            try:
                with torch.set_grad_enabled(grad):
                    inter.start(jobs, args)
                    output = inter.run(args, {})
            finally:
                for p, g in grads:
                    p.grad = g
                for s in states:
                    s.link.finish(s.clean and s.error is None)
        result = TraceResult(states, output)
        if result.errors and raise_errors:
            err = result.errors[0]
            err.ivc_result = result
            raise err
        return result

    def _worker_link(self, tenant):
        if self.sandbox.transport == "cuda-ipc":
            usable, why = _core.cuda_driver_status()
            if not usable:
                return FailedLink(SandboxUnavailable(
                    f"the cuda-ipc transport cannot be used here: {why}", []))
        try:
            worker = self._pool.acquire(self.sandbox.encoded(), tenant)
        except (_core.ChannelError, ValueError) as e:
            log.error("could not start an ivc worker: %s", e)
            return FailedLink(WorkerCrashed(f"could not start a worker: {e}"))
        return WorkerLink(self, worker, self.sandbox.trace_timeout_s)

    def _jobs(self, plan, t, units, values, tier_of):
        allow = set(self.sandbox.import_allowlist)
        # The analyzer judged a name the file binds by import statements as
        # what it imports, one spelled like an allowed module as that module,
        # and `nnsight` as the mediator library's own: such names need no
        # value (they are bound on the mediator's side, subject to the import
        # allowlist), and a value that makes one something else would run
        # what was never judged.
        spelled = {n: n for m in t.mediators for n in m.free_names
                   if n in allow or n == "nnsight"}
        imported = {n: p for m in t.mediators for n, p in m.free_imports.items()}
        typed = {n: k for m in t.mediators for n, k in m.free_types.items()}
        for k, v in itertools.chain(values.items(),
                                    *(u.names.items() for u in units)):
            judged = imported.get(k, spelled.get(k))
            if judged and not (isinstance(v, types.ModuleType) and v.__name__ == judged):
                raise PlanError(f"the free name {k!r} is {judged!r} to the analyzer; "
                                f"it cannot be given another value")
            # A module for any other name would run what the analyzer judged
            # as data's methods (`x.sub(...)` as a tensor's, then re.sub).
            if not judged and isinstance(v, types.ModuleType):
                raise PlanError(f"the free name {k!r} is no module to the analyzer; "
                                f"it cannot be given the module {v.__name__!r}")
            # An expanded view of 4 bytes may have 2^30 elements: copying it
            # by value (in process or into a worker) would make them all.
            for tensor in _mediator._tensors_in(v):
                if tensor.dim() > _tensors.MAX_DIMS:
                    raise PlanError(f"the free name {k!r} holds a tensor of {tensor.dim()} "
                                    f"dimensions; the channel carries at most "
                                    f"{_tensors.MAX_DIMS}")
                if tensor.numel() * tensor.element_size() > storage_bytes(tensor):
                    raise PlanError(f"the free name {k!r} holds a tensor of {tensor.numel()} "
                                    f"elements over {storage_bytes(tensor)} bytes (an "
                                    f"expanded view); pass a contiguous tensor (.contiguous())")
            kind = typed.get(k)
            if kind and not _mediator.is_free_kind(v, kind):
                raise PlanError(f"the free name {k!r} is a {kind} to the analyzer; "
                                f"it cannot be given a {type(v).__name__}")
        imports = {k: v.__name__ for k, v in values.items() if isinstance(v, types.ModuleType)}
        imports.update({n: p for n, p in {**spelled, **imported}.items() if n not in values})
        supplied = set(values) | set(imports)
        barriers = {k: v for k, v in values.items() if isinstance(v, Barrier)}
        plain = {k: v for k, v in values.items()
                 if not isinstance(v, (Barrier, types.ModuleType))}
        looped = {n for u in units for n in u.names}
        # How many units read each free name: the names another unit reads
        # are those read more often than by this one (linear in the units:
        # a loop makes many of them).
        readers = collections.Counter(n for u in units for n in set(u.mediator.free_names))
        jobs = []
        for i, u in enumerate(units):
            m, own, given = u.mediator, supplied | set(u.names), {**plain, **u.names}
            missing = [n for n in m.free_names if n not in own]
            if missing and len(units) == 1:
                raise PlanError(f"no value given for free name(s) {', '.join(missing)} "
                                f"of mediator {m.index}")
            mine = set(m.free_names)
            others = {n for n, c in readers.items() if c > (n in mine)}
            # A loop's names are each copy's own: never sent to another.
            exports = sorted(others - supplied - looped)
            block = self.sandbox.block
            jobs.append({
                "trace": t.index,
                "mediator": m.index,
                "tier": tier_of[i],
                "file": plan.file,
                "first_line": m.first_line,
                "source": m.source,
                "definitions": [[n, s] for n, s in m.definitions],
                "function_definitions": [[n, s] for n, s in m.function_definitions],
                "in_function": m.in_function,
                "function_names": list(m.function_names),
                "function_locals": list(m.function_locals),
                "guards": sorted(m.guards),
                "model_aliases": dict(m.model_aliases),
                "values": {n: given[n] for n in m.free_names if n in given},
                "barriers": {**m.barriers, **{n: barriers[n].participants
                                              for n in m.free_names if n in barriers}},
                "imports": {n: imports[n] for n in m.free_names if n in imports},
                "receiver": t.receiver,
                "tracer": t.tracer,
                "saves": list(m.saves),
                "exports": exports,
                # Free names nothing supplied (another invoke's, at a
                # barrier): until then they are unbound, never the builtin
                # of the same name (a file's `eval = torch.abs` is not
                # carried by the plan; the builtin must not stand in).
                "unbound": [n for n in m.free_names if n not in own],
                "import_allowlist": (list(self.sandbox.import_allowlist)
                                     if block.get("import", True) else None),
                "block_ctypes": bool(block.get("ctypes", True)),
            })
        return jobs

    def _tree_job(self, job, tree, worker):
        key, modules, params, config = tree
        if worker is None:
            known = key in _mediator.TREE_CACHE
        else:
            with self._trees_guard:
                seen = self._trees.pop(worker.id, set())
                known = key in seen
                seen.add(key)
                self._trees[worker.id] = seen
                while len(self._trees) > 4096:  # workers long retired
                    self._trees.popitem(last=False)
        job["tree"] = {"key": key} if known else {"key": key, "modules": modules,
                                                  "params": params, "config": config}


class _ModelLock:
    """One trace at a time on a model. A trace started on the same model by
    the thread already running one (from the model's forward, say) would
    wait on itself forever: it is refused instead."""

    def __init__(self):
        self._lock = threading.Lock()
        self._owner = None

    def __enter__(self):
        me = threading.get_ident()
        if self._owner == me:
            raise PlanError("a trace is already running on this model in this thread "
                            "(Runtime.run called from inside the model's forward?)")
        self._lock.acquire()
        self._owner = me

    def __exit__(self, *exc):
        self._owner = None
        self._lock.release()


def _clone_tensors(values):
    """FAST mediators get their free values by value, as workers do."""
    for k, v in list(values.items()):
        if isinstance(v, torch.Tensor):
            values[k] = v.detach().clone()
