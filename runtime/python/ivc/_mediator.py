"""The mediator side: what user code sees, in both tiers.

A mediator runs the plan's `definitions` and `source` with its free names
bound, the trace's receiver bound to an Envoy of the model and its tracer
name bound to a Tracer proxy. Touching `.output` of an envoy becomes a
request to the host, which answers when the model reaches that module; the
same code runs in a host thread (FAST) and in ivc-worker (ISOLATE), talking
through a MediatorPort.
"""

import ast
import builtins
import collections
import itertools
import random
import threading
import traceback
import types

import torch

from ._core import ChannelClosed
from ._grads import grad_of, unfilled
from ._protocol import MAX_CALL_ARGUMENTS, MAX_TYPE_NAME, check_participants, fit_text
from ._protocol import MediatorPort  # noqa: F401  (re-exported for the tiers)

# Module trees by key, shared by every mediator in this process: the host
# sends a model's tree once per process (worker) and then only its key. A
# worker keeps every tree it was sent (the host counts on it); the host
# process bounds its own cache (TREE_CACHE_LIMIT, set by the runtime).
TREE_CACHE = {}
TREE_CACHE_LIMIT = None

_BUILTIN_ERRORS = {
    name: obj for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
    and not issubclass(obj, (SystemExit, KeyboardInterrupt, GeneratorExit))
}


class _Unwind(BaseException):
    """Ends the user's code without an error (stop, cancel). A BaseException
    so that user `except Exception` blocks do not swallow it."""


class Abandoned(_Unwind):
    """Raised in a FAST mediator's thread when the host gives up on it (past
    its deadline or its memory budget): a Python loop stops at its next
    bytecode, one C call when it returns."""


# The mediator this thread runs (a FAST mediator's host thread, a worker's
# one), for what nnsight offers on values rather than on the tracer.
_running = threading.local()


def _stop_here(value):
    """nnsight's `module.output.stop()`: the trace's `tracer.stop()`."""
    mediator = getattr(_running, "mediator", None)
    if mediator is None:
        raise AttributeError(f"'{type(value).__name__}' object has no attribute 'stop'")
    mediator.stop()


class _Save:
    """What nnsight offers on any value: save() and stop()."""

    def save(self):
        return self

    def stop(self):
        _stop_here(self)


class SavableTuple(tuple, _Save):
    __slots__ = ()


class SavableList(list, _Save):
    __slots__ = ()


class SavableDict(dict, _Save):
    __slots__ = ()


def _savable(value):
    if type(value) is tuple:
        return SavableTuple(value)
    if type(value) is list:
        return SavableList(value)
    if type(value) is dict:
        return SavableDict(value)
    return value


_SAVED_CONTAINERS = (list, tuple, dict, SavableList, SavableTuple, SavableDict)


def _unfilled_in(value, depth=0):
    """Where a saved value holds a gradient no backward pass filled, if it
    does: read by exact types only (isinstance would read a user's
    `__class__`), so that no user method runs."""
    where = unfilled(value)
    if where is not None or type(value) not in _SAVED_CONTAINERS or depth > 64:
        return where
    for v in (value.values() if type(value) in (dict, SavableDict) else value):
        if (where := _unfilled_in(v, depth + 1)) is not None:
            return where
    return None


def _rewrite_saves(tree):
    """nnsight offers `.save()` on every value (a dict, a str, a number). ivc
    saves by name (the plan's `saves`), so save() only has to return its
    receiver: `x.save()` becomes `__ivc_save__(x)`, which calls x's own
    save() where its type has one (a tensor, an nnsight value). And nnsight
    gives `.grad` of any tensor read before the backward pass: `x.grad`
    becomes `__ivc_grad__(x)` (_grads.grad_of). In place and without
    recursion: a body may nest as deep as CPython compiles."""
    for node in ast.walk(tree):
        f = getattr(node, "func", None)
        if isinstance(node, ast.Call) and isinstance(f, ast.Attribute) and f.attr == "save" \
                and not node.args and not node.keywords:
            node.func = ast.copy_location(ast.Name("__ivc_save__", ast.Load()), f)
            node.args = [f.value]
        for field, child in ast.iter_fields(node):
            if isinstance(child, list):
                child[:] = [_grad_call(c) for c in child]
            else:
                setattr(node, field, _grad_call(child))
    return tree


def _grad_call(node):
    """`x.grad` (read) as `__ivc_grad__(x)`; any other node as it is."""
    if not (isinstance(node, ast.Attribute) and node.attr == "grad" and
            isinstance(node.ctx, ast.Load)):
        return node
    name = ast.copy_location(ast.Name("__ivc_grad__", ast.Load()), node)
    return ast.copy_location(ast.Call(name, [node.value], []), node)


def _save_any(value):
    if getattr(type(value), "save", None) is None:
        return value
    return value.save()


# Past this, a body compiles as written: parsing it to Python objects costs
# about three times what compiling does, on the host's thread for a FAST
# mediator (docs/performance.md).
_REWRITE_MAX_CHARS = 1 << 20


def _compiled(source, filename):
    """A mediator's code item for run_user, compiled by ivc itself."""
    if (".save" not in source and ".grad" not in source) or len(source) > _REWRITE_MAX_CHARS:
        return source, filename
    key = (source, filename)
    with _cache_lock:
        if (code := _cache.get(key)) is not None:
            _cache.move_to_end(key)
            return code
    code = _rewritten(source, filename)
    if len(source) <= _CACHE_MAX_CHARS and _constant_bytes(code) <= _CACHE_MAX_CONSTANT_BYTES:
        with _cache_lock:
            _cache[key] = code
            if len(_cache) > _CACHE_ENTRIES:
                _cache.popitem(last=False)
    return code


# A plan run again, or its invokes' shared definitions, reuse the code object,
# which nothing can change. The cache is the process's, every tenant's: it
# keeps only short code whose folded constants are small (`"ab" * 2048` is a
# 4 KiB string in ten bytes of source), so that it holds a few megabytes
# whatever it is given.
_CACHE_MAX_CHARS = 16 << 10
_CACHE_MAX_CONSTANT_BYTES = 64 << 10
_CACHE_ENTRIES = 128
_cache = collections.OrderedDict()
_cache_lock = threading.Lock()  # FAST mediators compile on their own threads


def _rewritten(source, filename):
    try:
        return compile(_rewrite_saves(ast.parse(source, filename)), filename, "exec",
                       dont_inherit=True)
    except RecursionError:
        return source, filename  # deeper than the AST objects go: saves stay as written


def _constant_bytes(code):
    """About how many bytes the constants of `code` (and of the code nested
    in it) hold, each object once."""
    total, seen, todo = 0, set(), [code]
    while todo:
        item = todo.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, types.CodeType):
            todo.extend(item.co_consts)
        elif isinstance(item, (tuple, frozenset)):
            total += 8 * len(item)
            todo.extend(item)
        elif isinstance(item, (str, bytes)):
            total += len(item)
        else:
            total += 32  # numbers, None, Ellipsis
    return total


# nnsight-style `x.save()` on a delivered tensor: saving is by name (the
# plan's `saves`), so save() only has to return its receiver.
if not hasattr(torch.Tensor, "save"):
    torch.Tensor.save = lambda self: self

if not hasattr(torch.Tensor, "stop"):
    torch.Tensor.stop = _stop_here


class _Functions:
    """What nnsight and its tracer both offer: log(...) into the mediator's
    log, and apply(fn, *args), which calls fn."""

    __slots__ = ()

    def log(self, *args, sep=" "):
        self._m.log(sep.join(str(a) for a in args))

    @staticmethod
    def apply(fn, *args, **kwargs):
        return fn(*args, **kwargs)


class Nnsight(_Functions):
    """What the name `nnsight` is bound to in a mediator: nnsight's functions
    that need no tracer. Saving is by name (the plan's `saves`), so save()
    returns its argument; list() and dict() make containers that have
    .save() as nnsight's do."""

    __slots__ = ("_m",)

    def __init__(self, mediator):
        self._m = mediator

    @staticmethod
    def save(value):
        return _savable(value)

    @staticmethod
    def list(*args):
        return SavableList(*args)

    @staticmethod
    def dict(*args, **kwargs):
        return SavableDict(*args, **kwargs)


def _imported(import_, path):
    """What `path` names, as `from a.b import c` binds it: an attribute of
    the module, or a submodule (`torch.zeros`, `torch.nn.functional`)."""
    head, _, tail = path.rpartition(".")
    if not head:
        return import_(path, fromlist=("_",))
    return getattr(import_(head, fromlist=(tail,)), tail)


def _own_random(seed):
    """The `random` module as a mediator sees it: its functions draw from a
    generator of the mediator's own, seeded as torch's is, so that the
    host's state is untouched and both tiers draw the same numbers."""
    mine = random.Random(seed)
    module = types.ModuleType("random", random.__doc__)
    for name in random.__all__:
        obj = getattr(random, name)
        bound = getattr(obj, "__self__", None) is random._inst  # noqa: SLF001
        setattr(module, name, getattr(mine, name) if bound else obj)
    return module


def is_free_kind(value, kind):
    """Whether a free name's value is of a plan's `free_types` kind (a bool
    is no number, as the analyzer tells them apart)."""
    if kind == "tensor":
        return isinstance(value, torch.Tensor)
    if kind == "number":
        return isinstance(value, (int, float, complex)) and not isinstance(value, bool)
    if kind == "str":
        return isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    return value is None


def _alias_target(envoy, path):
    """What a path from the model names: a submodule, a parameter, the
    configuration or one of its values; nothing else (a plan is checked
    for private names already)."""
    value = envoy
    for part in path.split(".") if path else ():
        if not isinstance(value, (Envoy, ModelConfig)) or part.startswith("_"):
            raise AttributeError(f"a name for part of the model cannot reach {path!r}")
        value = getattr(value, part)
    return value


def _receiver(path, envoy):
    """What the receiver's first name is bound to: the envoy, or for
    `self.model` an object whose `model` is the envoy."""
    for name in reversed(path.split(".") if path else []):
        envoy = types.SimpleNamespace(**{name: envoy})
    return envoy


class Tree:
    """Submodule paths and parameter paths of the model, for envoys."""

    def __init__(self, modules, params, config=None):
        self.modules = set(modules)
        self.params = set(params)
        self.config = None if config is None else ModelConfig(config)
        self.children = {}
        for path in modules:
            parent, _, name = path.rpartition(".")
            self.children.setdefault(parent, []).append(name)
        for names in self.children.values():
            names.sort(key=lambda n: (0, int(n)) if n.isdigit() else (1, n))


class ModelConfig:
    """The numbers of the model's configuration (`model.config.n_layer`,
    as the host's _model_config chose them), read only: one copy serves
    every trace on the model."""

    __slots__ = ("_values",)

    def __init__(self, numbers):
        object.__setattr__(self, "_values", types.MappingProxyType(dict(numbers)))

    def __getattr__(self, name):
        if name.startswith("_") or name not in self._values:
            raise AttributeError(f"the model's config has no number {name!r}")
        return self._values[name]

    def __setattr__(self, name, value):
        raise AttributeError("the model's config is read only")

    def to_dict(self):
        return dict(self._values)

    def __repr__(self):
        return f"<model config: {', '.join(sorted(self._values))}>"


class Envoy:
    """A proxy for a submodule at `path` ("" is the model itself)."""

    __slots__ = ("_m", "_path")

    def __init__(self, mediator, path):
        object.__setattr__(self, "_m", mediator)
        object.__setattr__(self, "_path", path)

    def _child(self, name):
        return f"{self._path}.{name}" if self._path else name

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        path = self._child(name)
        tree = self._m.tree
        if path == "config" and tree.config is not None and path not in tree.modules:
            return tree.config
        if path in tree.modules:
            return Envoy(self._m, path)
        if path in tree.params:
            return self._m.request(path, "param")
        raise AttributeError(f"'{self._path or self._m.receiver}' has no submodule or parameter "
                             f"'{name}'")

    def __setattr__(self, name, value):
        if name in ("output", "input"):
            return object.__setattr__(self, name, value)
        raise AttributeError(f"cannot assign '{name}' on a module envoy")

    def _children(self):
        return [Envoy(self._m, self._child(n)) for n in self._m.tree.children.get(self._path, ())]

    def __getitem__(self, index):
        # A tuple: the analyzer types every item of a slice as a submodule,
        # so nothing else may be put in it.
        if isinstance(index, slice):
            return tuple(self._children()[index])
        names = self._m.tree.children.get(self._path, ())
        return Envoy(self._m, self._child(names[index]))

    def __len__(self):
        return len(self._m.tree.children.get(self._path, ()))

    def __iter__(self):
        return iter(self._children())

    def __repr__(self):
        return f"<Envoy {self._path or self._m.receiver}>"

    @property
    def output(self):
        return self._m.request(self._path, "output")

    @output.setter
    def output(self, value):
        self._m.swap(self._path, "output", value)

    @property
    def input(self):
        return self._m.request(self._path, "input")

    @input.setter
    def input(self, value):
        self._m.swap(self._path, "input", value)

    @property
    def inputs(self):
        return self._m.request(self._path, "inputs")

    def skip(self, value):
        """Do not run this module; use `value` as its output (for this
        mediator's rows)."""
        self._m.skip(self._path, value)

    def next(self, step=1):
        """Address the module's next call (a module the model calls more
        than once)."""
        self._m.calls[self._path] = self._m.calls.get(self._path, 0) + step
        return self

    def __call__(self, *args, **kwargs):
        """Run the module on values of the mediator's (`model.lm_head(h)`):
        the host runs it outside the trace, so no mediator sees this call."""
        return self._m.call_module(self._path, args, kwargs)


class Barrier:
    """tracer.barrier(n)(): wait until n mediators reach the barrier, then
    exchange the names they share."""

    def __init__(self, mediator, name, participants):
        self._m = mediator
        self._name = name
        self._n = participants

    def __call__(self):
        self._m.barrier(self._name, self._n)


class _Iter:
    """tracer.iter[i], tracer.iter[a:b], tracer.iter[:]: loop over the calls
    of modules the model calls more than once in its forward."""

    def __init__(self, mediator):
        self._m = mediator

    def __getitem__(self, key):
        if isinstance(key, int):
            return self._m.iterate(range(key, key + 1), bounded=True)
        if isinstance(key, slice):
            start, step = key.start or 0, key.step or 1
            if key.stop is None:
                return self._m.iterate(itertools.count(start, step), bounded=False)
            return self._m.iterate(range(start, key.stop, step), bounded=True)
        raise TypeError("tracer.iter takes an int or a slice")


class Tracer(_Functions):
    """The trace's tracer, as a mediator sees it."""

    def __init__(self, mediator):
        self._m = mediator
        self._barriers = 0

    @property
    def iter(self):
        return _Iter(self._m)

    def all(self):
        """Every call, until the model stops calling (tracer.iter[:])."""
        return self._m.iterate(itertools.count(), bounded=False)

    def stop(self):
        """Stop the model here; the rest of this mediator does not run."""
        self._m.stop()

    def barrier(self, participants):
        check_participants(participants)
        self._barriers += 1
        return Barrier(self._m, f"barrier{self._barriers}", participants)

    def invoke(self, *args, **kwargs):
        raise RuntimeError("each tracer.invoke(...) body is its own mediator in the plan; "
                           "invokes cannot be opened from inside one")


class Mediator:
    """Runs one job from the host over a port."""

    def __init__(self, port, job, run_user, call_user):
        self.port = port
        self.job = job
        self.run_user = run_user
        self.call_user = call_user
        self.receiver = job["receiver"]
        tree = job["tree"]
        if "modules" in tree:
            if TREE_CACHE_LIMIT is not None and len(TREE_CACHE) >= TREE_CACHE_LIMIT:
                TREE_CACHE.pop(next(iter(TREE_CACHE)))
            TREE_CACHE[tree["key"]] = Tree(tree["modules"], tree["params"], tree.get("config"))
        self.tree = TREE_CACHE.get(tree["key"]) or Tree(tree.get("modules", ()),
                                                        tree.get("params", ()))
        self.calls = {}
        self.iteration = None   # the call index a tracer.iter loop is at
        self.unbounded = False  # in tracer.iter[:] / tracer.all()
        self.tracked = []  # [delivery id, tensor, version]
        self.deliveries = 0
        self.track = getattr(port.tensors, "track_mutations", False)
        self.ns = None
        self._bound = None  # the receiver, tracer and barriers, made once
        self.held = []  # user objects to drop as user code (_release)
        self.broken = False  # a message sent and its reply never read

    # -- the protocol ---------------------------------------------------
    def _mutations(self):
        out = []
        exposed = getattr(self.port.tensors, "exposed", None)
        for entry in self.tracked:
            version = _version(entry[1])
            if version != entry[2]:
                entry[2] = version
                out.append((entry[0], entry[1]))
            elif exposed and _overlaps(entry[3], exposed):
                out.append((entry[0], entry[1]))  # maybe written behind torch's back
        return out

    def _exchange(self, msg):
        if self.broken:
            raise _Unwind("the mediator's channel is out of step")
        try:
            self.port.send(msg + (self._mutations(),))
        except ChannelClosed:  # (an OSError: see below)
            raise _Unwind("the host ended the mediator") from None
        try:
            reply = self.port.recv()
        except BaseException as e:  # noqa: B902
            # Sent, but no reply read: the host is gone or gave up on this
            # mediator (its channel closed), or an error (a RecursionError,
            # a MemoryError) came between. The next reply read would answer
            # this message, so the channel is of no more use. User code may
            # catch those errors (`except Exception` is FAST); it cannot
            # catch ending as a stop does, here and at every later message.
            self.broken = True
            raise _Unwind("the host ended the mediator" if isinstance(e, ChannelClosed)
                          else "the mediator's channel is out of step") from None
        kind = reply[0]
        if kind == "error":
            if reply[1] == "ivc.NotReached":
                # The model finished: an open-ended iteration just ends.
                if self.unbounded:
                    raise _Unwind(reply[2])
                raise ValueError(reply[2])
            raise _BUILTIN_ERRORS.get(reply[1], RuntimeError)(reply[2])
        if kind == "cancel":
            raise _Unwind(reply[1])
        return reply

    def _deliver(self, value):
        """Gives every tensor of a delivery its id, as the host does (codec
        order), and watches its version counter."""
        for t in _tensors_in(value):
            if self.track:
                self.tracked.append([self.deliveries, t, _version(t), _span(t)])
            self.deliveries += 1
        return _savable(value)

    def _call(self, path):
        base = self.iteration if self.iteration is not None else 0
        return base + self.calls.get(path, 0)

    def iterate(self, indices, bounded):
        saved = self.iteration, self.unbounded
        try:
            for i in indices:
                self.iteration, self.unbounded = i, not bounded
                yield i
        finally:
            self.iteration, self.unbounded = saved

    def request(self, path, what):
        reply = self._exchange(("request", path, what, self._call(path)))
        if reply[0] != "value":
            raise RuntimeError(f"unexpected reply {reply[0]!r} to a request")
        return self._deliver(reply[1])

    def call_module(self, path, args, kwargs):
        if len(args) > MAX_CALL_ARGUMENTS or len(kwargs) > MAX_CALL_ARGUMENTS:
            raise TypeError(f"a module call takes at most {MAX_CALL_ARGUMENTS} positional "
                            f"and {MAX_CALL_ARGUMENTS} keyword arguments")
        reply = self._exchange(("call", path, tuple(args), dict(kwargs)))
        if reply[0] != "value":
            raise RuntimeError(f"unexpected reply {reply[0]!r} to a module call")
        return self._deliver(reply[1])

    def swap(self, path, what, value):
        self._exchange(("swap", path, what, self._call(path), value))

    def skip(self, path, value):
        self._exchange(("skip", path, self._call(path), value))

    def log(self, text):
        self._exchange(("log", fit_text(text)))

    def stop(self):
        self._exchange(("stop",))
        raise _Unwind("stopped")

    def barrier(self, name, participants):
        exports = {n: self.ns[n] for n in self.job["exports"] if n in self.ns}
        reply = self._exchange(("barrier", name, participants, exports))
        if reply[0] != "release":
            raise RuntimeError(f"unexpected reply {reply[0]!r} to a barrier")
        self.ns.update(reply[1])

    # -- running the job ------------------------------------------------
    def _builtins(self):
        b = dict(vars(builtins))
        for name in self.job.get("unbound", ()):
            b.pop(name, None)
        mediator = self

        def print_(*args, sep=" ", end="\n", file=None, flush=False):
            text = sep.join(str(a) for a in args) + end
            mediator.log(text[:-1] if text.endswith("\n") else text)

        allow = self.job["import_allowlist"]
        block_ctypes = self.job.get("block_ctypes", True)
        real_import = builtins.__import__
        own_random = []

        def import_(name, globals=None, locals=None, fromlist=(), level=0):
            # C code importing lazily while user code runs (numpy's sum
            # imports numpy.core._methods) comes through here too, since
            # PyImport_Import takes __import__ from the calling frame. It
            # passes an empty *list* as fromlist, where import statements
            # pass None or a tuple: that is the library's import, not the
            # user's, and is not gated here (the audit hook and the kernel
            # still are).
            if type(fromlist) is list and not fromlist and level == 0:
                return real_import(name, globals, locals, fromlist, level)
            top = name.partition(".")[0]
            # torch imports ctypes itself, so `import ctypes` finds it loaded
            # and raises no audit event: refuse it here, by name.
            if block_ctypes and top in ("ctypes", "_ctypes"):
                raise PermissionError(f"ivc sandbox: import of '{name}' is blocked by policy "
                                      "(category: ctypes, import statement)")
            if allow is not None and (level != 0 or top not in allow):
                raise ImportError(f"ivc sandbox: import of '{name}' is not allowed "
                                  f"(allowed: {', '.join(sorted(allow)) or 'nothing'})")
            if name == "random" and level == 0:
                if not own_random:
                    own_random.append(_own_random(mediator.job.get("seed", 0)))
                return own_random[0]
            return real_import(name, globals, locals, fromlist, level)

        b["print"] = print_
        b["__ivc_save__"] = _save_any
        b["__ivc_grad__"] = grad_of
        b["__import__"] = import_
        return b

    def _define(self, definitions, ns):
        """Runs definitions in `ns`, then binds what the analyzer took for
        the model, the tracer and the barriers there, which they must not
        rebind."""
        self.run_user([_compiled(src, f"<definition {name}>") for name, src in definitions], ns)
        if self._bound is None:
            job = self.job
            root, _, path = job["receiver"].partition(".")
            model = Envoy(self, "")
            self._bound = {root: _receiver(path, model)}
            for name, target in job.get("model_aliases", {}).items():
                self._bound[name] = _alias_target(model, target)
            if job["tracer"]:
                self._bound[job["tracer"]] = Tracer(self)
            for name, participants in job.get("barriers", {}).items():
                self._bound[name] = Barrier(self, name, participants)
        ns.update(self._bound)

    def run(self):
        try:
            return self._run()
        finally:
            # What user code left (its namespace, the error it raised and the
            # frames that error holds) is dropped as user code: a finalizer
            # freed with it (`__del__`, a generator's `finally`) runs with
            # the worker's audit hook on.
            self.call_user(self._release)

    def _release(self):
        self.ns = self._bound = None
        self.held.clear()

    def _run(self):
        job = self.job
        module = {"__name__": "__ivc_mediator__", "__builtins__": self._builtins()}
        ns = self.ns = module
        try:
            # Binding the job's names can fail as user code can (a module
            # the allowlist refuses): it is reported the same way.
            given = dict(job["values"])
            for name, path in job.get("imports", {}).items():
                given[name] = (Nnsight(self) if path == "nnsight" else
                               _imported(module["__builtins__"]["__import__"], path))
            # The function's names stay out of the module's namespace: a
            # module function's `max` or `float` is still the builtin.
            local = set(job.get("function_names", ())) if job.get("in_function") else set()
            module.update({n: v for n, v in given.items() if n not in local})
            self._define(job["definitions"], module)
            _check_guarded(module, given, job, local, inside=False)
            if job.get("in_function"):
                # The body binds the function's names: the module's
                # definitions keep seeing the module's (`scale = -1` in the
                # body is not a module function's `scale`).
                # A local nothing binds yet is unbound, as in the function:
                # never the module's value or a builtin (`if c: eval = len`
                # that did not run leaves `eval` no builtin to fall back to).
                unbound = set(job.get("function_locals", ()))
                ns = self.ns = {n: v for n, v in module.items() if n not in unbound}
                ns["__builtins__"] = {n: v for n, v in module["__builtins__"].items()
                                      if n not in unbound}
                ns.update({n: given[n] for n in local if n in given})
                self._define(job.get("function_definitions", ()), ns)
                _check_guarded(ns, given, job, local, inside=True)
            self.run_user([_compiled("\n" * (job["first_line"] - 1) + job["source"], job["file"])],
                          ns)
        except _Unwind:
            pass
        except BaseException as e:  # noqa: B902 - every user error is reported
            self.held.append(e)
            if not self.broken:
                self._report(e)
                return False
        if self.broken:
            # Nothing more can be said on the channel: the tier closes it
            # (a FAST thread ends, a worker exits), and the host fails the
            # mediator as one that ended mid-protocol.
            raise ChannelClosed("the mediator's channel is out of step")
        try:
            saves = {n: ns[n] for n in job["saves"] if n in ns}
            for name, value in saves.items():
                if (where := _unfilled_in(value)) is not None:
                    raise RuntimeError(f"{name!r} holds the gradient of {where}, which no "
                                       f".backward() of this mediator reached")
            self.port.send(("end", saves, self._mutations()))
        except (TypeError, ValueError, RuntimeError) as e:
            self._report(e)
            return False
        return True

    def _report(self, exc):
        t = type(exc)
        name = t.__name__ if t.__module__ == "builtins" else f"{t.__module__}.{t.__qualname__}"
        try:
            # str() and the traceback run the exception's own methods: user
            # code, run as user code (in a worker, under the audit hook).
            message, (tb_text, location) = self.call_user(_describe, exc, self.job)
        except BaseException as failure:  # noqa: B902 - a user's __str__ may raise anything
            self.held.append(failure)
            message, tb_text, location = f"<{name} whose str() raised>", "", None
        self.port.send(("exception", fit_text(name, MAX_TYPE_NAME), fit_text(message),
                        fit_text(tb_text), location, self._mutations()))


def _check_guarded(ns, given, job, local, inside):
    """The runtime checked the caller's values of the plan's `guards` before
    choosing FAST: a definition that rebinds one (`def f(x=(k := 2**30))`)
    would put another value under the verdict."""
    for name in job.get("guards", ()):
        if name in given and (name in local) == inside and ns.get(name) is not given[name]:
            raise RuntimeError(f"a definition rebinds {name!r}, the caller's value that the "
                               "plan's guards checked")


# A tensor's version counter, read through torch's C descriptor: a job may
# rebind torch.Tensor._version, and _mutations runs after user code.
_version = torch._C._TensorBase.__dict__["_version"].__get__


def _span(t):
    if t.numel() == 0:
        return None
    start = t.data_ptr()
    return start, start + t.numel() * t.element_size()


def _overlaps(span, spans):
    if span is None:
        return False
    lo, hi = span
    return any(a < hi and lo < b for a, b in spans)


def _tensors_in(value):
    if isinstance(value, torch.Tensor):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _tensors_in(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from _tensors_in(k)
            yield from _tensors_in(v)
    elif isinstance(value, (set, frozenset)):
        for v in value:
            yield from _tensors_in(v)


def format_user_traceback(exc, job):
    """The frames of the user's own code only (its file and definitions),
    with source lines from the plan: the same text in both tiers."""
    body = job["file"]
    sources = {f"<definition {n}>": s.splitlines()
               for n, s in job["definitions"] + list(job.get("function_definitions", ()))}
    sources[body] = [""] * (job["first_line"] - 1) + job["source"].splitlines()
    out = ["Traceback (most recent call last):\n"]
    location = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename not in sources:
            continue
        out.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}\n')
        src = sources[frame.filename]
        if frame.lineno and 0 < frame.lineno <= len(src) and src[frame.lineno - 1].strip():
            out.append(f"    {src[frame.lineno - 1].strip()}\n")
        location = (frame.filename, frame.lineno or 0)
    out.extend(traceback.format_exception_only(type(exc), exc))
    return "".join(out), location


def _describe(exc, job):
    return str(exc), format_user_traceback(exc, job)


def run_job(port, job, run_user, call_user):
    """Entry point of both tiers. Returns True after a clean END."""
    mediator = Mediator(port, job, run_user, call_user)
    _running.mediator = mediator
    try:
        return mediator.run()
    finally:
        _running.mediator = None
