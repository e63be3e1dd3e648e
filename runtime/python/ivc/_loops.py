"""Invokes opened in a loop (a plan's `loop`, docs/plan.md).

nnsight opens one invoke per turn of `for p in prompts: with
tracer.invoke(p): ...`; the runtime runs one copy of the mediator per turn,
with the loop's names bound to that turn's values. The plan gives the loop
as text, which is read here with `ast` and evaluated by this module alone:
names, slices of names by integers, displays of literals, a dict's items,
keys or values, and the builtins range, len, enumerate and zip (the
analyzer names no other loop), so no code of the file runs in the host to
count the turns.
"""

import ast
import itertools

from ._errors import PlanError

_CALLS = ("range", "enumerate", "zip")
# The longest target or iterable the analyzer names (passes/InvokeLoop.cpp):
# a display of a thousand numbers, where ast's nodes for a million took
# gigabytes.
MAX_TEXT = 4096
# The most mediators one trace runs, loops' turns counted: each FAST one
# holds a host thread for the trace, and a loop's turns come from the
# caller's data, not from the file's size.
MAX_UNITS = 1024
# The most turns loop_turns counts for a caller (past MAX_UNITS on purpose:
# it only counts).
MAX_TURNS = 4096


class Loop:
    """A parsed `loop`: `key` tells one loop from another (its start)."""

    __slots__ = ("target", "iterable", "text", "key")

    def __repr__(self):
        return f"<ivc.plan.Loop {self.text!r}>"


def _expression(text, where):
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise PlanError(f"{where}: {text!r} is not a Python expression") from None


def _names_only(node):
    if isinstance(node, ast.Name):
        return True
    return (isinstance(node, (ast.Tuple, ast.List)) and bool(node.elts) and
            all(_names_only(e) for e in node.elts))


_DEPTH = 16  # as the analyzer's (passes/InvokeLoop.cpp)
_DICT_VIEWS = ("items", "keys", "values")


def _signed_number(node, int_only=True):
    """An int (or float) literal, signed (`-1`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and (
        type(node.value) is int or (not int_only and type(node.value) is float))


def _literal_display(node, depth=0):
    if isinstance(node, ast.Constant) or _signed_number(node, int_only=False):
        return True
    return depth < _DEPTH and isinstance(node, (ast.List, ast.Tuple)) and \
        all(_literal_display(e, depth + 1) for e in node.elts)


def _call_of(node, names):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id in names and not node.keywords


def _dict_view(node):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
        isinstance(node.func.value, ast.Name) and node.func.attr in _DICT_VIEWS and \
        not node.args and not node.keywords


def _slice_of_name(node):
    """`name[a:b:c]` with integer (or absent) bounds."""
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
        isinstance(node.slice, ast.Slice) and all(
            b is None or _signed_number(b) for b in (node.slice.lower, node.slice.upper,
                                                     node.slice.step))


def _range_bound(node):
    return isinstance(node, ast.Name) or _signed_number(node) or (
        _call_of(node, ("len",)) and len(node.args) == 1 and isinstance(node.args[0], ast.Name))


def _countable(node, depth=0):
    if depth > _DEPTH:
        return False
    if isinstance(node, ast.Name) or _slice_of_name(node):
        return True
    if isinstance(node, (ast.List, ast.Tuple)):
        return _literal_display(node, depth)
    if _dict_view(node):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "enumerate" and len(node.args) == 1 and len(node.keywords) == 1:
        start = node.keywords[0]
        return start.arg == "start" and _signed_number(start.value) and \
            _countable(node.args[0], depth + 1)
    if not (_call_of(node, _CALLS) and node.args) or \
            any(isinstance(a, ast.Starred) for a in node.args):
        return False
    args = node.args
    if node.func.id == "range":
        return len(args) <= 3 and all(_range_bound(a) for a in args)
    if node.func.id == "enumerate":
        return (len(args) == 1 or (len(args) == 2 and _signed_number(args[1]))) and \
            _countable(args[0], depth + 1)
    return all(_countable(a, depth + 1) for a in args)


def parse(raw, where):
    """A plan's `loop` (null or {target, iterable, range}) as a Loop or None."""
    if raw is None:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("target"), str) or \
            not isinstance(raw.get("iterable"), str):
        raise PlanError(f"{where}: expected null or an object with 'target' and 'iterable'")
    if max(len(raw["target"]), len(raw["iterable"])) > MAX_TEXT:
        raise PlanError(f"{where}: a target or iterable longer than {MAX_TEXT} characters")
    loop = Loop()
    loop.target = _expression(raw["target"], f"{where}.target")
    loop.iterable = _expression(raw["iterable"], f"{where}.iterable")
    if not _names_only(loop.target):
        raise PlanError(f"{where}.target: {raw['target']!r} is not names (in tuples or lists)")
    if not _countable(loop.iterable):
        raise PlanError(f"{where}.iterable: {raw['iterable']!r} is not a name, a slice of one, "
                        f"a display of literals, a dict's items, or range, enumerate or zip "
                        f"of those")
    loop.text = f"for {raw['target'].strip()} in {raw['iterable'].strip()}"
    start = raw.get("range", {}).get("start", {}) if isinstance(raw.get("range"), dict) else {}
    offset = start.get("offset") if isinstance(start, dict) else None
    if offset is not None and type(offset) is not int:
        raise PlanError(f"{where}.range.start.offset: expected an integer")
    loop.key = (offset, loop.text)
    return loop


def target_names(loop):
    return [n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)]


def _value(node, lookup):
    """What the loop's iterable (or a part of it) evaluates to, by this
    module's own reading of the few forms _countable admits."""
    if isinstance(node, ast.Name):
        return lookup(node.id)
    if isinstance(node, (ast.Constant, ast.UnaryOp, ast.List, ast.Tuple)):
        return ast.literal_eval(node)
    if isinstance(node, ast.Subscript):
        bounds = (node.slice.lower, node.slice.upper, node.slice.step)
        sliced = lookup(node.value.id)
        try:
            return sliced[slice(*(None if b is None else ast.literal_eval(b) for b in bounds))]
        except (TypeError, ValueError) as e:
            raise PlanError(f"the loop's {ast.unparse(node)}: {e}") from None
    if _dict_view(node):
        d = lookup(node.func.value.id)
        if type(d) is not dict:
            raise PlanError(f"the loop's {ast.unparse(node)}: {node.func.value.id!r} is a "
                            f"{type(d).__name__}, not a dict")
        return getattr(d, node.func.attr)()
    args = [_value(a, lookup) for a in node.args]
    args += [_value(k.value, lookup) for k in node.keywords]  # enumerate's start
    try:
        if node.func.id == "len":
            return len(args[0])
        if node.func.id == "range":
            if not all(type(a) is int for a in args):
                raise TypeError("range() takes integers")
            return range(*args)
        return (enumerate if node.func.id == "enumerate" else zip)(*args)
    except TypeError as e:
        raise PlanError(f"the loop's {ast.unparse(node)}: {e}") from None


def _bind(target, value, into, text):
    if isinstance(target, ast.Name):
        into[target.id] = value
        return
    n = len(target.elts)
    try:
        items = list(itertools.islice(iter(value), n + 1))
    except TypeError:
        raise PlanError(f"{text}: cannot unpack a {type(value).__name__} "
                        f"into {ast.unparse(target)}") from None
    if len(items) != n:
        count = f"more than {n}" if len(items) > n else len(items)
        raise PlanError(f"{text}: cannot unpack {count} values into {ast.unparse(target)}")
    for t, v in zip(target.elts, items):
        _bind(t, v, into, text)


def turns(loop, lookup, expected=None, most=MAX_TURNS):
    """The names each turn binds, one dict per turn. `lookup(name)` gives a
    name's value (a PlanError if it has none). Exactly `expected` turns, or
    at most `most`: no more are made than it takes to refuse."""
    cap = expected if expected is not None else most
    iterable = _value(loop.iterable, lookup)
    try:
        elements = list(itertools.islice(iter(iterable), cap + 1))
    except TypeError:
        raise PlanError(f"{loop.text}: a {type(iterable).__name__} is not iterable") from None
    if expected is not None and len(elements) != expected:
        count = f"more than {expected}" if len(elements) > expected else len(elements)
        raise PlanError(f"{loop.text}: the loop has {count} turns, but {expected} inputs were "
                        f"given for it (one per turn)")
    if len(elements) > cap:
        raise PlanError(f"{loop.text}: the loop has more than {most} turns")
    bound = []
    for element in elements:
        names = {}
        _bind(loop.target, element, names, loop.text)
        bound.append(names)
    return bound


def pinned_value(name, source):
    """The value of a constant the plan pins (`name = (value)`), when it is
    a literal: what a loop over a pinned name counts."""
    try:
        tree = ast.parse(source)
        (assign,) = tree.body
        if not isinstance(assign, ast.Assign):
            raise ValueError
        return ast.literal_eval(assign.value)
    except (SyntaxError, ValueError, TypeError, MemoryError, RecursionError):
        raise PlanError(f"a loop of invokes iterates {name!r}, which the plan binds to "
                        f"{source.strip()!r}: not a literal the runtime can count") from None


class Unit:
    """What runs as one mediator: a plan mediator, or one turn of a looped one."""

    __slots__ = ("mediator", "turn", "names", "input")

    def __init__(self, mediator, turn, names, input_):
        self.mediator, self.turn, self.names, self.input = mediator, turn, names, input_


def expand(trace, inputs, lookup):
    """The trace's units in the order nnsight opens them: a mediator with
    no loop once, with its input; the invokes of a loop turn by turn, each
    taking its turn's input from the list the caller gave it."""
    mediators = trace.mediators
    if len(inputs) != len(mediators):
        raise PlanError(f"the trace has {len(mediators)} mediators but {len(inputs)} inputs were "
                        "given (one per invoke, or one for a trace without invokes)")
    total = sum(len(x) if m.loop is not None and isinstance(x, list) else 1
                for m, x in zip(mediators, inputs))
    if total > MAX_UNITS:
        raise PlanError(f"the trace would run {total} mediators (each turn of a loop of invokes "
                        f"is one), more than the {MAX_UNITS} one trace may; split the inputs "
                        f"over several traces")
    units, expanded = [], set()
    for i, m in enumerate(mediators):
        if m.loop is None:
            units.append(Unit(m, None, {}, inputs[i]))
            continue
        if m.loop.key in expanded:
            continue
        expanded.add(m.loop.key)
        group = [j for j, o in enumerate(mediators)
                 if o.loop is not None and o.loop.key == m.loop.key]
        for j in group:
            if not isinstance(inputs[j], list):
                raise PlanError(f"invoke {mediators[j].index} runs once per turn of "
                                f"`{m.loop.text}`: give it a list of inputs, one per turn")
        counts = {len(inputs[j]) for j in group}
        if len(counts) != 1:
            raise PlanError(f"the invokes of `{m.loop.text}` were given lists of inputs of "
                            f"different lengths; give each one input per turn")
        for turn, names in enumerate(turns(m.loop, lookup, counts.pop())):
            units.extend(Unit(mediators[j], turn, names, inputs[j][turn]) for j in group)
    return units
