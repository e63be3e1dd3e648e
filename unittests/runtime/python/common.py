"""Shared by the runtime's Python tests: one Runtime per test module, the
tiny model, and helpers that run a plan in both tiers."""

import ctypes
import gc
import os
import sys
import threading
import unittest

import torch

import ivc
from plans import mediator, plan  # noqa: F401  (re-exported)
from tiny_gpt import TinyGPT, tokens  # noqa: F401

TIERS = ("fast", "isolate")

_runtime = None
_runtime_guard = threading.Lock()


def runtime(**sandbox):
    """A Runtime shared by the tests of one module (so the zygote starts
    once), whichever thread asks first. A test that needs another sandbox
    config makes its own."""
    global _runtime
    with _runtime_guard:
        if _runtime is None:
            _runtime = ivc.Runtime(ivc.SandboxConfig(**sandbox) if sandbox else None,
                                   pool_size=2)
        return _runtime


def run_both(test, p, model, inputs, values=None, **kw):
    """Runs every mediator FAST, then every mediator ISOLATE; asserts that the
    saved values are bit-identical and returns the FAST result."""
    n = len(ivc.load_plan(p).trace(0).mediators)
    results = {}
    for tier in TIERS:
        results[tier] = runtime().run(p, model, inputs, values, tiers=dict.fromkeys(range(n), tier),
                                      **kw)
    assert_same(test, results["fast"].saves, results["isolate"].saves)
    return results["fast"]


def assert_same(test, a, b, where="saves"):
    test.assertEqual(type(a), type(b), where)
    if isinstance(a, torch.Tensor):
        test.assertEqual(a.dtype, b.dtype, where)
        test.assertEqual(a.shape, b.shape, where)
        test.assertTrue(torch.equal(a, b), f"{where}: tensors differ")
    elif isinstance(a, dict):
        test.assertEqual(sorted(a), sorted(b), where)
        for k in a:
            assert_same(test, a[k], b[k], f"{where}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        test.assertEqual(len(a), len(b), where)
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(test, x, y, f"{where}[{i}]")
    else:
        test.assertEqual(a, b, where)


class ChangedLater(torch.nn.Module):
    """Changes its first module's output in place after that module's hook."""

    def __init__(self):
        super().__init__()
        self.first = torch.nn.Linear(4, 4)
        self.second = torch.nn.Linear(4, 4)
        self.last = torch.nn.Linear(4, 4)

    def forward(self, x):
        a = self.first(x)
        a.add_(100.0)
        return self.last(a + self.second(a))


# Updates the second delivery in place; the model changed the first since.
CARRY_BACK_SOURCE = """
a = model.first.output
b = model.second.output
b[:] = 0
out = model.last.output.save()
"""


class Hooked:
    """Reference values computed with plain torch forward hooks, to check
    the runtime against an independent implementation."""

    def __init__(self, model):
        self.model = model
        self.handles = []
        self.seen = {}

    def capture(self, path, name=None):
        module = self.model.get_submodule(path)

        def hook(mod, args, out):
            self.seen[name or path] = out
        self.handles.append(module.register_forward_hook(hook))
        return self

    def replace(self, path, fn):
        module = self.model.get_submodule(path)
        self.handles.append(module.register_forward_hook(lambda mod, args, out: fn(out)))
        return self

    def __call__(self, *args):
        try:
            with torch.no_grad():
                return self.model(*args)
        finally:
            for h in self.handles:
                h.remove()


def quiet_fds():
    return len(os.listdir("/proc/self/fd"))


def release_free_memory():
    """Gives the allocator's free pages back to the kernel, so that what a
    test allocates next shows in the resident size (memory budgets read it)
    rather than reusing what earlier tests freed."""
    gc.collect()
    ctypes.CDLL(None).malloc_trim(0)


def _status_kib(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def rss_kib():
    return _status_kib("VmRSS")


def address_space_above_this_process(extra_bytes):
    """An RLIMIT_AS for workers that leaves them extra_bytes past what this
    process maps. A worker maps about what the host does (torch, its
    libraries, a thread and malloc arena per core), and that differs by
    machine: a CUDA build of torch on 16 cores maps gigabytes more than
    Debian's CPU build on 2, so a fixed limit that is tight here starves the
    workers there."""
    return _status_kib("VmSize") * 1024 + extra_bytes


__all__ = ["unittest", "torch", "ivc", "sys", "mediator", "plan", "TinyGPT", "tokens",
           "runtime", "run_both", "assert_same", "Hooked", "TIERS"]
