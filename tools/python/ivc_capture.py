"""Capture what a live Python frame binds each free name of a body to.

ivc analyzes source statically; a notebook or script that builds helpers at run
time (closures, aliases, functions from other files) is analyzed most exactly
with the values those names hold when the trace is sent. This module writes an
``ivc-manifest/v1`` (docs/manifest.md) for:

* a function:          ``capture_function(fn)``
* a frame:             ``capture_frame(frame, names)``
* the current ``with`` block, from inside it::

      with model.trace(prompt) as tracer:
          manifest = ivc_capture.capture_with_block()

Then ``ivc check --manifest manifest.json notebook.py``. Standard library only:
torch tensors and nnsight objects are recognized without importing either.
"""

import ast
import builtins
import inspect
import json
import sys
import textwrap
import types

SCHEMA = "ivc-manifest/v1"

# Builtin functions implemented in C modules report the C module's name.
_MODULE_ALIASES = {"posix": "os", "nt": "os", "_io": "io", "_socket": "socket",
                   "_pickle": "pickle", "_ctypes": "ctypes", "_signal": "signal",
                   "_thread": "threading", "_posixsubprocess": "subprocess"}


def _module_name(name):
    return _MODULE_ALIASES.get(name, name)


def _is_tensor(value):
    t = type(value)
    return t.__module__.startswith("torch") and hasattr(value, "dtype") and hasattr(value, "shape")


def _model_path(value):
    """The submodule path of an nnsight envoy or a torch module, or None."""
    t = type(value)
    mro = [c.__module__ + "." + c.__name__ for c in t.__mro__]
    if any(m.startswith("nnsight.") for m in mro):
        path = getattr(value, "path", None) or getattr(value, "_path", None) or ""
        path = str(path)
        return path[len("model."):] if path.startswith("model.") else ("" if path == "model" else path)
    if "torch.nn.modules.module.Module" in mro:
        return ""
    return None


def _code_names(code):
    """Global names a code object and the code objects nested in it load."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _function_source(fn):
    """Dedented source, first line, and the column the definition started at."""
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None, None, 0
    column = len(lines[0]) - len(lines[0].lstrip()) if lines else 0
    return textwrap.dedent("".join(lines)), first, column


def describe(value, _seen=None):
    """The manifest binding that describes ``value``."""
    seen = _seen if _seen is not None else set()
    if isinstance(value, types.ModuleType):
        return {"kind": "module", "name": value.__name__}
    if isinstance(value, types.BuiltinFunctionType):
        module = getattr(value, "__module__", None) or "builtins"
        if module == "builtins":
            return {"kind": "builtin", "name": value.__name__}
        return {"kind": "module", "name": _module_name(module) + "." + value.__name__}
    if isinstance(value, (types.FunctionType, types.MethodType)):
        fn = value.__func__ if isinstance(value, types.MethodType) else value
        return _describe_function(fn, seen)
    if _is_tensor(value):
        return {"kind": "tensor", "dtype": str(value.dtype).replace("torch.", ""),
                "shape": [int(d) for d in value.shape], "device": str(value.device)}
    path = _model_path(value)
    if path is not None:
        return {"kind": "model", "path": path}
    if value is None or isinstance(value, (bool, int, float, str)):
        binding = {"kind": "value", "type": type(value).__name__}
        if value is not None:
            binding["value"] = value
        return binding
    if isinstance(value, (list, tuple, dict, set, frozenset)):
        return {"kind": "value", "type": type(value).__name__}
    if isinstance(value, type):
        return {"kind": "unknown", "type": "type " + value.__module__ + "." + value.__qualname__}
    t = type(value)
    return {"kind": "unknown", "type": t.__module__ + "." + t.__qualname__}


def _describe_function(fn, seen):
    source, first, column = _function_source(fn)
    if source is None:
        return {"kind": "unknown", "type": "function without source: " + fn.__qualname__}
    binding = {"kind": "function", "qualname": fn.__qualname__, "source": source,
               "file": inspect.getsourcefile(fn) or "<unknown>", "first_line": first,
               "first_column": column}
    if id(fn) in seen:  # recursion: the outer description has the bindings
        binding["bindings"] = {}
        return binding
    seen.add(id(fn))
    binding["bindings"] = _function_bindings(fn, seen)
    return binding


def _function_bindings(fn, seen):
    bindings = {}
    # Closure cells first: they shadow globals of the same name.
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            bindings[name] = describe(cell.cell_contents, seen)
        except ValueError:  # an empty cell
            bindings[name] = {"kind": "unknown", "type": "empty cell"}
    for name in sorted(_code_names(fn.__code__)):
        if name in bindings:
            continue
        if name in fn.__globals__:
            bindings[name] = describe(fn.__globals__[name], seen)
        elif hasattr(builtins, name):
            bindings[name] = describe(getattr(builtins, name), seen)
    return bindings


def manifest(bindings):
    """Wraps bindings in a manifest document."""
    return {"schema": SCHEMA, "bindings": bindings}


def capture_function(fn):
    """A manifest of what ``fn``'s free names (globals and closure cells) are bound to."""
    return manifest(_function_bindings(fn, set()))


def capture_frame(frame, names):
    """A manifest of what ``names`` are bound to in ``frame`` (locals, then globals, then builtins)."""
    bindings = {}
    seen = set()
    for name in sorted(set(names)):
        if name in frame.f_locals:
            bindings[name] = describe(frame.f_locals[name], seen)
        elif name in frame.f_globals:
            bindings[name] = describe(frame.f_globals[name], seen)
        elif hasattr(builtins, name):
            bindings[name] = describe(getattr(builtins, name), seen)
    return manifest(bindings)


def free_names(body_source):
    """Names a block of code reads without binding them."""
    tree = ast.parse(textwrap.dedent(body_source))
    loaded, bound = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound.add((alias.asname or alias.name).split(".")[0])
    return sorted(loaded - bound)


def _enclosing_with(tree, line):
    best = None
    for node in ast.walk(tree):
        if isinstance(node, (ast.With, ast.AsyncWith)) and node.lineno <= line <= node.end_lineno:
            if best is None or node.lineno > best.lineno:
                best = node
    return best


def capture_with_block(frame=None):
    """A manifest for the innermost ``with`` block around the caller's current line."""
    frame = frame or sys._getframe(1)
    filename = frame.f_code.co_filename
    source = inspect.getsource(inspect.getmodule(frame) or frame.f_code) \
        if not filename.startswith("<") else None
    if source is None:
        with open(filename, encoding="utf-8") as f:
            source = f.read()
    block = _enclosing_with(ast.parse(source), frame.f_lineno)
    if block is None:
        raise ValueError("capture_with_block() must be called inside a with block")
    body = ast.get_source_segment(source, block) or ""
    return capture_frame(frame, free_names(body))


def dumps(document):
    """The manifest as JSON, keys sorted."""
    return json.dumps(document, indent=2, sort_keys=True) + "\n"


def main(argv=None):
    import argparse
    import importlib.util
    parser = argparse.ArgumentParser(
        description="Write an ivc-manifest/v1 for a function of a Python file (runs the file).")
    parser.add_argument("file", help="the Python file that defines the function")
    parser.add_argument("function", help="the function's name in that file")
    parser.add_argument("-o", "--output", help="write here instead of standard output")
    args = parser.parse_args(argv)
    spec = importlib.util.spec_from_file_location("ivc_capture_target", args.file)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, args.function, None)
    if not callable(fn):
        parser.error("no function %r in %s" % (args.function, args.file))
    text = dumps(capture_function(fn))
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
