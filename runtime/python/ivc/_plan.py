"""Reading ivc-plan/v1 documents (docs/plan.md).

Only the fields the runtime needs are read; unknown fields are ignored, so
the analyzer can add to the format without breaking the runtime. A field
that is present but malformed is a PlanError naming where it is.
"""

import json
import keyword

from . import _loops
from ._errors import PlanError

SCHEMA = "ivc-plan/v1"
TIERS = ("fast", "isolate", "reject")
# The kinds of a caller's value a plan's `free_types` may require.
FREE_TYPES = ("tensor", "number", "str", "bool", "none")
MAX_LINE = 1 << 22  # of a mediator's first line
MAX_INDEX = (1 << 31) - 1  # of a trace or a mediator


class Mediator:
    """One unit of user code the runtime runs against the model."""

    __slots__ = ("index", "kind", "tier", "differentiate", "reasons", "saves", "free_names",
                 "free_imports", "free_types", "definitions", "function_definitions",
                 "in_function", "function_names", "function_locals", "guards", "model_aliases",
                 "barriers", "source", "first_line", "modules", "starts_empty", "loop", "raw")

    def __repr__(self):
        return f"<ivc.plan.Mediator {self.index} {self.kind} {self.tier}>"


class Trace:
    __slots__ = ("index", "kind", "receiver", "tracer", "mediators", "raw")

    def __repr__(self):
        return f"<ivc.plan.Trace {self.index} {len(self.mediators)} mediators>"


class Plan:
    """A parsed plan. `data` is the JSON document as a dict."""

    def __init__(self, data):
        self.data = data
        self.file, self.traces, self.diagnostics = _parse(data)

    @property
    def json(self):
        return json.dumps(self.data, sort_keys=True)

    def trace(self, index=0):
        for t in self.traces:
            if t.index == index:
                return t
        raise PlanError(f"plan has no trace {index} (it has {[t.index for t in self.traces]})")

    def __repr__(self):
        return f"<ivc.Plan {self.file!r}: {len(self.traces)} traces>"


def load_plan(plan):
    """A Plan from a Plan, a dict, or a JSON string/bytes."""
    if isinstance(plan, Plan):
        return plan
    if isinstance(plan, (str, bytes, bytearray)):
        try:
            plan = json.loads(plan)
        except ValueError as e:
            raise PlanError(f"plan is not valid JSON: {e}") from None
        except RecursionError:
            raise PlanError("plan is not valid JSON: nested too deeply") from None
    if not isinstance(plan, dict):
        raise PlanError(f"plan must be a dict or JSON text, not {type(plan).__name__}")
    return Plan(plan)


def _need(obj, key, types, where, default=..., allow_none=False):
    if key not in obj:
        if default is not ...:
            return default
        raise PlanError(f"{where}: missing field '{key}'")
    value = obj[key]
    if value is None and allow_none:
        return None
    if not isinstance(value, types) or (isinstance(value, bool) and bool not in _tuple(types)):
        names = "/".join(t.__name__ for t in _tuple(types))
        raise PlanError(f"{where}.{key}: expected {names}, got {type(value).__name__}")
    return value


def _tuple(types):
    return types if isinstance(types, tuple) else (types,)


def _index(obj, key, where, default):
    value = _need(obj, key, int, where, default=default)
    if not 0 <= value <= MAX_INDEX:
        raise PlanError(f"{where}.{key}: {value} is out of range")
    return value


def _text(obj, key, where, default=...):
    """A str that can be compiled: no NUL character, no lone surrogate."""
    value = _need(obj, key, str, where, default=default)
    if "\0" in value:
        raise PlanError(f"{where}.{key}: contains a NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise PlanError(f"{where}.{key}: is not valid Unicode (a lone surrogate)") from None
    return value


def _name(value, where, dotted=False):
    parts = value.split(".") if dotted else [value]
    if not all(p.isidentifier() and not keyword.iskeyword(p) for p in parts):
        raise PlanError(f"{where}: {value!r} is not a Python name")
    return value


def _strings(obj, key, where):
    value = _need(obj, key, list, where, default=[])
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise PlanError(f"{where}.{key}[{i}]: expected str")
    return list(value)


def _model_aliases(m, free_names, where):
    """A mediator's `model_aliases`: {name: path from the receiver}, each
    path dotted names and indices ("transformer.h.1", "config.n_layer")."""
    aliases = _need(m, "model_aliases", dict, where, default={})
    for name, path in aliases.items():
        # (Never through a private or special attribute: `__class__` leads
        # out of the model.)
        if (not isinstance(path, str) or not name.isidentifier() or keyword.iskeyword(name) or
                name in free_names or not all((p.isidentifier() and not p.startswith("_")) or
                                              p.isdigit() for p in path.split(".") if path)):
            raise PlanError(f"{where}.model_aliases: {name!r} is not a name apart from the free "
                            f"names bound to a dotted path of public names")
    return dict(aliases)


def _barriers(m, free_names, where):
    """A mediator's `barriers`: {name: participants}, names apart from the
    free names."""
    # (Imported here, not with the module: loading _protocol (and torch)
    # from _plan, early in the package's import, made threads waiting in
    # _core at exit print ChannelClosed; test_binary has the case.)
    from ._protocol import MAX_PARTICIPANTS
    barriers = _need(m, "barriers", dict, where, default={})
    for name, participants in barriers.items():
        if not name.isidentifier() or keyword.iskeyword(name) or name in free_names or \
                type(participants) is not int:
            raise PlanError(f"{where}.barriers: {name!r} is not a name apart from the free "
                            f"names with a number of participants")
        if not 1 <= participants <= MAX_PARTICIPANTS:
            raise PlanError(f"{where}.barriers: {name!r} is for 1 to {MAX_PARTICIPANTS} "
                            f"mediators, not {participants}")
    return dict(barriers)


def _guards(m, free_names, where):
    """A mediator's `guards`: {name: ("number", most), ("tensor", most) or
    ("number_or_tensor", None)}."""
    guards = {}
    for name, g in _need(m, "guards", dict, where, default={}).items():
        kind = g.get("kind") if isinstance(g, dict) else None
        most = g.get("most") if isinstance(g, dict) else None
        bounded = kind in ("number", "tensor")
        if name not in free_names or not (bounded or kind == "number_or_tensor") or (
                bounded and (type(most) is not int or most < 1)) or (
                not bounded and most is not None) or set(g) - {"kind", "most"}:
            raise PlanError(f"{where}.guards: {name!r} is not a free name guarded as "
                            f"{{'kind': 'number' or 'tensor', 'most': N}} or "
                            f"{{'kind': 'number_or_tensor'}}")
        guards[name] = (kind, most)
    return guards


def _parse(data):
    schema = data.get("schema")
    if schema != SCHEMA:
        raise PlanError(f"plan schema is {schema!r}, this runtime reads {SCHEMA!r}")
    file = _text(data, "file", "plan", default="<plan>")
    diagnostics = _need(data, "diagnostics", list, "plan", default=[])
    traces = []
    for ti, t in enumerate(_need(data, "traces", list, "plan")):
        where = f"traces[{ti}]"
        if not isinstance(t, dict):
            raise PlanError(f"{where}: expected an object")
        trace = Trace()
        trace.raw = t
        trace.index = _index(t, "index", where, default=ti)
        trace.kind = _need(t, "kind", str, where, default="trace")
        trace.receiver = _name(_need(t, "receiver", str, where), f"{where}.receiver", dotted=True)
        # `self` of a dotted receiver (`self.model`) is bound by the runtime.
        receiver_root, dotted, _ = trace.receiver.partition(".")
        trace.tracer = _need(t, "tracer", str, where, default=None, allow_none=True)
        if trace.tracer is not None:
            _name(trace.tracer, f"{where}.tracer")
            if trace.tracer == receiver_root:
                raise PlanError(f"{where}.tracer: the same name as the receiver")
        trace.mediators = []
        for mi, m in enumerate(_need(t, "mediators", list, where)):
            mw = f"{where}.mediators[{mi}]"
            if not isinstance(m, dict):
                raise PlanError(f"{mw}: expected an object")
            med = Mediator()
            med.raw = m
            med.index = _index(m, "index", mw, default=mi)
            med.kind = _need(m, "kind", str, mw, default="body")
            med.tier = _need(m, "tier", str, mw)
            if med.tier not in TIERS:
                raise PlanError(f"{mw}.tier: {med.tier!r} is not one of {', '.join(TIERS)}")
            med.differentiate = _need(m, "differentiate", bool, mw, default=False)
            med.reasons = _need(m, "reasons", list, mw, default=[])
            med.saves = _strings(m, "saves", mw)
            med.free_names = _strings(m, "free_names", mw)
            med.free_imports = _need(m, "free_imports", dict, mw, default={})
            for name, path in med.free_imports.items():
                if (name not in med.free_names or not isinstance(path, str) or
                        not all(p.isidentifier() for p in path.split("."))):
                    raise PlanError(f"{mw}.free_imports: {name!r} is not a free name bound "
                                    f"to a dotted path")
            med.free_types = _need(m, "free_types", dict, mw, default={})
            for name, kind in med.free_types.items():
                if name not in med.free_names or kind not in FREE_TYPES:
                    raise PlanError(f"{mw}.free_types: {name!r} is not a free name of a kind "
                                    f"in {', '.join(FREE_TYPES)}")
            med.guards = _guards(m, med.free_names, mw)
            if dotted and receiver_root in med.free_names and med.tier != "reject":
                # Nothing the caller gives can cross with the receiver's path
                # (the analyzer rejects such a mediator: IVC213).
                raise PlanError(f"{mw}: reads {receiver_root!r} other than as the receiver "
                                f"{trace.receiver!r}; bind the model to a plain name "
                                f"(model = {trace.receiver}) before the trace")
            med.model_aliases = _model_aliases(m, med.free_names, mw)
            med.barriers = _barriers(m, med.free_names, mw)
            med.modules = _need(m, "modules", list, mw, default=[])
            # The body of a trace in a function binds that function's names:
            # the module's definitions see the module's names alone.
            med.in_function = _need(m, "in_function", bool, mw, default=False)
            med.function_names = _strings(m, "function_names", mw)
            med.function_locals = _strings(m, "function_locals", mw)
            if not set(med.function_names) <= set(med.free_names):
                raise PlanError(f"{mw}.function_names: not all of them are free names")
            med.definitions, med.function_definitions = [], []
            med.starts_empty = set()
            for di, d in enumerate(_need(m, "definitions", list, mw, default=[])):
                dw = f"{mw}.definitions[{di}]"
                if not isinstance(d, dict):
                    raise PlanError(f"{dw}: expected an object")
                scope = _need(d, "scope", str, dw, default="module")
                if scope not in ("module", "function") or (scope == "function" and
                                                           not med.in_function):
                    raise PlanError(f"{dw}.scope: {scope!r} is not 'module', or 'function' "
                                    f"of a mediator in a function")
                name = _name(_need(d, "name", str, dw), f"{dw}.name")
                (med.function_definitions if scope == "function" else med.definitions).append(
                    (name, _text(d, "source", dw)))
                if _need(d, "starts_empty", bool, dw, default=False):
                    med.starts_empty.add(name)
            med.loop = _loops.parse(m.get("loop"), f"{mw}.loop")
            if med.loop is not None:
                taken = set(med.barriers) | set(med.model_aliases) | {
                    n for n, _ in med.definitions + med.function_definitions}
                if med.kind != "invoke" or taken & set(_loops.target_names(med.loop)):
                    raise PlanError(f"{mw}.loop: only an invoke runs in a loop, and its names "
                                    f"are apart from the plan's definitions, aliases and barriers")
            med.source = _text(m, "source", mw)
            body = m.get("body_range") or m.get("range") or {}
            start = body.get("start", {}) if isinstance(body, dict) else {}
            line = start.get("line", 1) if isinstance(start, dict) else 1
            med.first_line = line if isinstance(line, int) and line >= 1 else 1
            if med.first_line > MAX_LINE:
                # The mediator's code is compiled at its line (padded with
                # blank lines): no real file is this long.
                raise PlanError(f"{mw}.body_range.start.line: {line} is past line {MAX_LINE}")
            trace.mediators.append(med)
        traces.append(trace)
    return file, traces, diagnostics
