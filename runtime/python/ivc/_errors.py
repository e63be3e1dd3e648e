"""Exceptions the runtime raises (all subclasses of ivc.IvcError, except that a
mediator's own exception is re-raised on the host as its builtin type when
it has one, e.g. ZeroDivisionError)."""


class IvcError(Exception):
    """Base of every error the ivc runtime raises itself."""


class PlanError(IvcError):
    """The plan is malformed, or does not fit the call (missing free names,
    wrong number of invoke inputs)."""


class RejectedError(IvcError):
    """A mediator of the trace has tier "reject": nothing of the trace ran.
    `diagnostics` holds the plan's reasons for it."""

    def __init__(self, message, diagnostics=()):
        super().__init__(message)
        self.diagnostics = list(diagnostics)


class SandboxUnavailable(IvcError):
    """Isolated execution is refused: the sandbox audit failed (see `lines`)."""

    def __init__(self, message, lines=()):
        super().__init__(message)
        self.lines = list(lines)


class MediatorError(IvcError):
    """A mediator raised an exception whose type is not a Python builtin; the
    message starts with the original type name."""


class WorkerError(IvcError):
    """The worker running an ISOLATE mediator failed; the model run and the
    other mediators went on without it. `pid` is the worker's."""

    pid = None


class WorkerTimeout(WorkerError):
    """The mediator did not finish before its deadline; its worker's process
    group was killed."""


class WorkerCrashed(WorkerError):
    """The worker died (a signal, an rlimit, an abort) mid-protocol."""


class ProtocolViolation(WorkerError):
    """The worker sent something the protocol does not allow."""


class MediatorStopped(IvcError):
    """The host stopped a FAST mediator at one of its limits (below). Its
    thread is interrupted: Python code stops at its next bytecode, a C call
    only when it returns (the analyzer keeps unbounded C calls out of FAST)."""


class MediatorTimeout(MediatorStopped):
    """A FAST mediator did not finish before its deadline."""


class MediatorMemoryExceeded(MediatorStopped):
    """A FAST mediator grew the host's resident memory by more than
    `fast_memory_bytes` during its turns."""
