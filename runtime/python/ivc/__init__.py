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

from ._errors import (IvcError, MediatorError, MediatorTimeout, PlanError,  # noqa: F401
                      ProtocolViolation, RejectedError, SandboxUnavailable, WorkerCrashed,
                      WorkerError, WorkerTimeout)
from ._plan import Plan, load_plan  # noqa: F401

_HOST_API = ("Runtime", "SandboxConfig", "TraceResult", "MediatorResult", "Barrier")


def __getattr__(name):
    # The host API imports torch and the interleaver; a worker imports only
    # what it runs (ivc._worker), so load the host side on first use.
    if name in _HOST_API:
        from . import _runtime
        return getattr(_runtime, name)
    raise AttributeError(f"module 'ivc' has no attribute {name!r}")


def compile(source, filename="<string>", policy=None):  # noqa: A001 - the documented name
    """Runs the analyzer in-process and returns the Plan."""
    from . import _core
    if not hasattr(_core, "compile_plan"):
        raise NotImplementedError(
            "this build of ivc has no analyzer binding yet (ivc/plan/Compile.h); "
            "load a plan with ivc.load_plan(json) instead")
    return load_plan(_core.compile_plan(source, filename, policy))


def audit(worker_path=None, allow_jit=True):
    """Runs the sandbox canaries; returns (passed, lines)."""
    from . import _build_info, _core
    passed, lines, error = _core.run_audit(worker_path or _build_info.WORKER_PATH,
                                           list(_build_info.WORKER_PYTHON_PATH),
                                           allow_jit=allow_jit)
    if error:
        lines = list(lines) + [f"ivc audit: {error}"]
    return passed, lines
