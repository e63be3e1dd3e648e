"""ivc: run ivc-plan/v1 plans against torch models (docs/runtime.md).

    import ivc
    plan = ivc.compile(source, filename="steering.py")
    with ivc.Runtime() as rt:
        result = rt.run(plan, model, inputs=[tokens], values={"steering": v})
    result["logits"]

FAST mediators run in host threads; ISOLATE mediators in sandboxed
ivc-worker processes; a REJECT mediator makes run() raise before anything
runs. Results do not depend on the tier.
"""

from ._errors import (IvcError, MediatorError, MediatorMemoryExceeded,  # noqa: F401
                      MediatorStopped, MediatorTimeout, PlanError, ProtocolViolation,
                      RejectedError, SandboxUnavailable, WorkerCrashed, WorkerError,
                      WorkerTimeout)
from ._plan import Plan, load_plan  # noqa: F401

_HOST_API = ("Runtime", "SandboxConfig", "TraceResult", "MediatorResult", "Barrier", "loop_turns")


def __getattr__(name):
    # The host API imports torch and the interleaver; a worker imports only
    # what it runs (ivc._worker), so load the host side on first use.
    if name in _HOST_API:
        from . import _runtime
        return getattr(_runtime, name)
    raise AttributeError(f"module 'ivc' has no attribute {name!r}")


def compile(source, filename="<string>", policy=None, manifest=None):  # noqa: A001
    """Runs the analyzer in-process on `source` and returns its Plan.

    policy: a preset name ("ndif", "strict") or a policy file; None: the
        nearest pyproject.toml with [tool.ivc] from `filename`, else ndif.
    manifest: an ivc-manifest/v1 document (dict or JSON text), or None.
    """
    import json

    from . import _core
    if isinstance(manifest, dict):
        manifest = json.dumps(manifest)
    text = _core.compile_plan(source, filename, policy or "", manifest or "")
    data = json.loads(text)
    if "error" in data and "schema" not in data:
        raise PlanError(data["error"])
    return load_plan(data)


def audit(worker_path=None, allow_jit=True):
    """Runs the sandbox canaries; returns (passed, lines)."""
    from . import _build_info, _core
    passed, lines, error = _core.run_audit(worker_path or _build_info.WORKER_PATH,
                                           list(_build_info.WORKER_PYTHON_PATH),
                                           allow_jit=allow_jit)
    if error:
        lines = list(lines) + [f"ivc audit: {error}"]
    return passed, lines
