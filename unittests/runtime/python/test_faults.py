"""User errors and worker failures. The model run and the other mediators
must survive every one of them; a failed worker is retired."""

import gc
import os
import re
import signal
import socket
import subprocess
import threading
import time
from unittest import mock

from common import (TinyGPT, address_space_above_this_process, ivc, mediator, plan,
                    release_free_memory, tokens, torch, unittest)
from ivc import _core, _interleaver, _links, _protocol

SURVIVOR = mediator("""
    survivor = model.lm_head.output.save()
    """, kind="invoke", saves=["survivor"])


def alive(pid):
    """Whether any thread of the process still runs. Its leader turns zombie
    first; the others (torch's, the driver's) may take a while longer, and
    until the last one is gone its descriptors stay open and its pidfd does
    not report the exit."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except FileNotFoundError:
        return False
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                if not any(l.startswith(("State:\tZ", "State:\tX")) for l in f):
                    return True
        except FileNotFoundError:
            pass
    return False


def fast_threads_settle():
    """Whether every FAST thread is idle again within 5 s (white box)."""
    for _ in range(250):
        running = sum(t.name == "ivc-fast-mediator" for t in threading.enumerate())
        if running == len(_links._threads._idle):
            return True
        time.sleep(0.02)
    return False


class WorkerPids:
    """Records the pid of every worker a trace attaches (white box)."""

    def __init__(self):
        self.pids = []
        self._orig = _links.WorkerLink.start

    def __enter__(self):
        pids, orig = self.pids, self._orig

        def start(link, job):
            pids.append(link.worker.pid)
            return orig(link, job)
        _links.WorkerLink.start = start
        return self

    def __exit__(self, *exc):
        _links.WorkerLink.start = self._orig


class Faults(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        address_space = address_space_above_this_process(2 << 30)
        cls.rt = ivc.Runtime(ivc.SandboxConfig(trace_timeout_s=3.0, address_space_bytes=address_space),
                             pool_size=2)
        cls.model = TinyGPT()
        cls.ids = tokens(batch=2)
        cls.expected = cls.model(cls.ids).detach()

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def run_failing(self, source, tier, **kw):
        p = plan(mediator(source, kind="invoke", line=20, **kw), SURVIVOR)
        r = self.rt.run(p, self.model, [self.ids, self.ids], tiers={0: tier}, raise_errors=False)
        # The model ran to the end and the other mediator has its value.
        self.assertTrue(torch.equal(r["survivor"], torch.cat([self.expected] * 2)[2:]))
        self.assertIsNone(r.mediators[1].error)
        return r.mediators[0].error, r

    def test_a_fast_turn_that_fails_to_begin_leaves_the_turn_free(self):
        # The turn lock is taken before the mediator's random state is put
        # in place: if that fails, the lock must not stay taken, or every
        # later FAST mediator of every tenant waits forever.
        link = _links.FastLink(self.rt._fast_guard, 1.0)
        link._rng = "not a generator state"
        with self.assertRaises(TypeError):
            link._enter()
        self.assertTrue(_links._turn.acquire(timeout=5))
        _links._turn.release()

    def test_a_trace_holds_at_most_max_workers_per_trace(self):
        # Each ISOLATE mediator holds a worker, with limits of its own, until
        # the trace ends: past the cap, nothing starts.
        rt = ivc.Runtime(ivc.SandboxConfig(max_workers_per_trace=2), pool_size=1)
        self.addCleanup(rt.close)
        p = plan(*[mediator(f"x{i} = model.lm_head.output.save()\n", kind="invoke",
                            saves=[f"x{i}"]) for i in range(3)])
        ids = [tokens(batch=1)] * 3
        with self.assertRaisesRegex(ivc.PlanError, "3 mediators ISOLATE.*max_workers_per_trace"):
            rt.run(p, self.model, ids, tiers=dict.fromkeys(range(3), "isolate"))
        self.assertEqual(rt.stats()["spawned"] + rt.stats()["forked"], 0)
        r = rt.run(p, self.model, ids, tiers={0: "isolate", 1: "isolate", 2: "fast"})
        self.assertTrue(torch.equal(r["x0"], r["x2"]))

    def test_user_exception_is_reraised_with_its_location(self):
        src = """
            h = model.transformer.h[0].output[0]
            ratio = bad(h)
            """
        defs = [("bad", "def bad(h):\n    return h.sum() / 0 + {}['missing']\n")]
        texts = []
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing(src, tier, definitions=defs)
            self.assertIsInstance(err, KeyError)
            self.assertEqual(err.ivc_location, ("<definition bad>", 2))
            self.assertIn('File "experiment.py", line 21, in <module>', err.ivc_traceback)
            self.assertIn("ratio = bad(h)", err.ivc_traceback)
            self.assertIn(f"({tier})", err.__notes__[0])
            texts.append(err.ivc_traceback)
        self.assertEqual(texts[0], texts[1])
        # run() raises it, with the partial result attached.
        p = plan(mediator("x = 1 / 0\n"))
        with self.assertRaises(ZeroDivisionError) as cm:
            self.rt.run(p, self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(cm.exception.ivc_location, ("experiment.py", 10))
        self.assertIsInstance(cm.exception.ivc_result, ivc.TraceResult)

    def test_non_builtin_exception_type(self):
        src = "class Custom(Exception):\n    pass\nraise Custom('nope')\n"
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing(src, tier)
            self.assertIsInstance(err, ivc.MediatorError)
            self.assertIn("Custom: nope", str(err))

    def test_request_after_the_module_ran(self):
        src = """
            later = model.transformer.h[1].output[0]
            earlier = model.transformer.h[0].output[0]
            """
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing(src, tier)
            self.assertIsInstance(err, ValueError)
            self.assertIn("model.transformer.h.0 was requested after it ran", str(err))
            self.assertEqual(err.ivc_location, ("experiment.py", 21))

    def test_module_never_reached(self):
        src = "second = model.transformer.h[0].next().output\n"
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing(src, tier)
            self.assertIsInstance(err, ValueError)
            self.assertIn("was never reached", str(err))

    def test_unknown_submodule(self):
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing("x = model.transformer.nope.output\n", tier)
            self.assertIsInstance(err, AttributeError)
            self.assertIn("'transformer' has no submodule or parameter 'nope'", str(err))

    def test_unsavable_value(self):
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing("f = lambda: 1\n", tier, saves=["f"])
            self.assertIsInstance(err, TypeError)
            self.assertIn("'function' cannot cross the ivc channel", str(err))

    def test_odd_exceptions_are_reported_as_the_mediators_own(self):
        cases = [
            ("class Odd(Exception):\n    def __str__(self):\n        raise RuntimeError\n"
             "raise Odd()\n", ivc.MediatorError, "Odd whose str() raised"),
            ("raise ValueError('\\ud800')\n", ValueError, "\\ud800"),
            ("raise ValueError('m' * (3 << 20))\n", ValueError, "[ivc: cut at 1048576 of"),
            ("T = type('E' * 300, (Exception,), {})\nraise T('x')\n", ivc.MediatorError,
             "[ivc: cut at 256"),
        ]
        for src, kind, text in cases:
            for tier in ("fast", "isolate"):
                err, _ = self.run_failing(src, tier)
                self.assertIsInstance(err, kind, (tier, src))
                self.assertIn(text, str(err), (tier, src))

    def test_values_the_channel_refuses_are_refused_where_they_are_made(self):
        # By the mediator: its own error, the same in both tiers.
        for src, kind, text in [
                ("x = torch.ones(3).to_sparse()\n", TypeError, "sparse_coo tensor cannot cross"),
                ("x = {torch.ones(1): 1}\n", TypeError, "dict key or set element holding a tensor"),
                ("x = list(range(1 << 21))\n", ValueError, "more than 1048576 values"),
                ("b = tracer.barrier(10 ** 6)\n", ValueError, "a barrier is for 1 to 4096")]:
            for tier in ("fast", "isolate"):
                err, _ = self.run_failing(src, tier, saves=["x"], free_names=["torch"])
                self.assertIsInstance(err, kind, (tier, src))
                self.assertIn(text, str(err), (tier, src))
        # By the host: run() refuses them before the mediator sees them.
        p = plan(mediator("y = v\n", free_names=["v"]))
        for tier in ("fast", "isolate"):
            with self.assertRaisesRegex(TypeError, "holding a tensor"):
                self.rt.run(p, self.model, [self.ids], {"v": {torch.ones(1): 1}}, tiers={0: tier})
        with self.assertRaisesRegex(ValueError, "1 to 4096"):
            ivc.Barrier(10 ** 6)
        # A module for a name the analyzer did not judge as that module, even
        # an allowed one: its functions would run as data's methods.
        for module in (os, re):
            with self.assertRaisesRegex(ivc.PlanError, "no module to the analyzer"):
                self.rt.run(p, self.model, [self.ids], {"v": module})
        with self.assertRaisesRegex(ivc.PlanError, "is past line"):
            ivc.load_plan(plan(mediator("x = 1\n", line=1 << 40)))

    def test_definitions_cannot_rebind_the_model_or_the_tracer(self):
        # The runtime binds them after the plan's definitions: a definition
        # named like them (an analyzer never emits one) changes nothing.
        p = plan(mediator("kind = type(model).__name__ + type(tracer).__name__\n",
                          saves=["kind"], definitions=[("model", "model = 3\n"),
                                                       ("tracer", "tracer = 4\n")]))
        for tier in ("fast", "isolate"):
            r = self.rt.run(p, self.model, [self.ids], tiers={0: tier})
            self.assertEqual(r["kind"], "EnvoyTracer", tier)

    def test_a_fault_of_ivcs_own_on_a_message_fails_that_mediator_alone(self):
        # (White box: a log message the interleaver breaks on.)
        from unittest import mock
        from ivc import _interleaver
        broken = mock.patch.object(_interleaver, "MAX_LOG_BYTES", None)
        for tier in ("fast", "isolate"):
            with broken, self.assertLogs("ivc.runtime", "ERROR"):
                err, _ = self.run_failing("tracer.log('x')\n", tier)
            self.assertIsInstance(err, ivc.MediatorError, tier)
            self.assertIn("ivc failed on the mediator's 'log' message: TypeError", str(err))

    def test_a_spent_budget_stops_a_worker_whatever_it_queued(self):
        # (White box.) With nothing left, the host reads no more frames and
        # sends no more: a worker that keeps frames queued is not served a
        # millisecond at a time.
        for use in ("recv", "send"):
            link = self.rt._worker_link("")
            link.budget_s = 0.0
            with self.assertRaisesRegex(ivc.WorkerTimeout, "did not finish before its deadline"):
                link.recv() if use == "recv" else link.send(("ok",))
            link.finish(False)

    def test_swap_with_a_wrong_shape(self):
        src = "model.transformer.h[0].output = (torch.zeros(5, 5),)\n"
        for tier in ("fast", "isolate"):
            err, _ = self.run_failing(src, tier, free_names=["torch"])
            self.assertIsInstance(err, ValueError)
            self.assertIn("has shape (5, 5), expected (2, 8, 32)", str(err))

    def test_fast_mediator_past_its_deadline_is_abandoned(self):
        rt = ivc.Runtime(ivc.SandboxConfig(import_allowlist=["torch", "time"]),
                         fast_timeout_s=0.5)
        self.addCleanup(rt.close)
        p = plan(mediator("import time\nh = model.transformer.h[0].output[0]\ntime.sleep(2)\n",
                          kind="invoke"), SURVIVOR)
        r = rt.run(p, self.model, [self.ids, self.ids], raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)
        # The next FAST mediator took its turn after the abandoned one.
        self.assertTrue(torch.equal(r["survivor"], self.expected))
        self.assertIsNone(r.mediators[1].error)
        # (Other tests' FAST work would run ISOLATE while its sleep lasts.)
        self.assertTrue(fast_threads_settle(), "the abandoned sleep never returned")

    def test_while_abandoned_fast_calls_run_fast_work_goes_to_workers(self):
        # A call the host gave up on keeps a core and its memory until it
        # returns: meanwhile its tenant's FAST mediators run ISOLATE, and
        # everyone's do once MAX_STUCK_FAST such calls run.
        rt = ivc.Runtime(ivc.SandboxConfig(import_allowlist=["torch", "time"]),
                         fast_timeout_s=0.3)
        self.addCleanup(rt.close)
        stuck = plan(mediator("import time\ntime.sleep(8)\n"))
        light = plan(mediator("h = model.transformer.h[0].output[0].save()\n", saves=["h"]))

        def tier(tenant):
            return rt.run(light, self.model, [self.ids], tenant=tenant).mediators[0].tier

        for i in range(_links.MAX_STUCK_FAST):
            r = rt.run(stuck, self.model, [self.ids], tenant=f"t{i}", raise_errors=False)
            self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)
            if i == 0:
                self.assertEqual((tier("t0"), tier("other")), ("isolate", "fast"))
        self.assertEqual(tier("other"), "isolate")
        self.assertEqual(rt.run(light, self.model, [self.ids], tenant="other",
                                tiers={0: "fast"}).mediators[0].tier, "fast")
        deadline = time.monotonic() + 30
        while _links._threads.stuck() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertEqual((tier("t0"), tier("other")), ("fast", "fast"))

    def test_fast_mediator_past_its_deadline_stops_looping(self):
        rt = ivc.Runtime(fast_timeout_s=0.5)
        self.addCleanup(rt.close)
        p = plan(mediator("h = model.transformer.h[0].output[0]\n"
                          "for i in range(10**12):\n    h = h\n", kind="invoke"), SURVIVOR)
        r = rt.run(p, self.model, [self.ids, self.ids], raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)
        self.assertTrue(torch.equal(r["survivor"], self.expected))
        # Interrupted, the loop's thread ends its job and is pooled again.
        self.assertTrue(fast_threads_settle(), "the timed-out mediator's thread is still running")

    def test_host_work_on_fast_messages_counts_against_the_budget(self):
        # Each message costs the host 20 ms here (a slow log sink, say): two
        # hundred prints are 4 s of the host's time on a 1 s budget, while
        # the mediator itself is idle.
        handle = _interleaver.Interleaver._handle

        def slow_logs(self, m, msg):
            if msg[0] == "log":
                time.sleep(0.02)
            return handle(self, m, msg)

        rt = ivc.Runtime(fast_timeout_s=1)
        self.addCleanup(rt.close)
        p = plan(mediator("h = model.transformer.h[0].output[0]\n"
                          "for i in range(200):\n    print(i)\n", kind="invoke"), SURVIVOR)
        with mock.patch.object(_interleaver.Interleaver, "_handle", slow_logs):
            r = rt.run(p, self.model, [self.ids, self.ids], tiers={0: "fast", 1: "fast"},
                       raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)
        self.assertIn("the host's work for the FAST mediator", str(r.mediators[0].error))
        self.assertLess(len(r.mediators[0].logs), 200)
        self.assertTrue(torch.equal(r["survivor"], self.expected))

    def test_what_a_stopped_fast_mediator_made_is_freed_before_it_counts_as_done(self):
        # Freeing a tensor releases the GIL; at interpreter exit a thread that
        # takes it back aborts the process, so the exit drain must not see
        # the thread done while its tensors (in a cycle here) still live.
        rt = ivc.Runtime(fast_timeout_s=0.3)
        self.addCleanup(rt.close)
        p = plan(mediator("h = model.transformer.h[0].output[0]\n"
                          "cycle = [torch.zeros(12347, 3)]\ncycle.append(cycle)\n"
                          "for i in range(10**12):\n    h = h\n", kind="invoke",
                          free_names=["torch"]))
        gc.disable()  # (only the thread's own collection may free the cycle)
        self.addCleanup(gc.enable)
        r = rt.run(p, self.model, [self.ids], values={"torch": torch}, raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorTimeout)
        _links._threads.drain(10)
        left = [o for o in gc.get_objects() if torch.is_tensor(o) and o.shape == (12347, 3)]
        self.assertEqual(left, [])

    def test_fast_mediator_over_its_memory_budget_is_stopped(self):
        # Collecting ten million integers (a bound the analyzer cannot see
        # when it comes from data) takes about 400 MiB; the host stops the
        # loop a few megabytes past 64 MiB.
        rt = ivc.Runtime(fast_memory_bytes=64 << 20)
        self.addCleanup(rt.close)
        p = plan(mediator("h = model.transformer.h[0].output[0]\nxs = []\n"
                          "for i in range(10_000_000):\n    xs.append(i)\n", kind="invoke"),
                 SURVIVOR)
        r = rt.run(p, self.model, [self.ids, self.ids], raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.MediatorMemoryExceeded)
        self.assertIn("by more than 67108864 bytes", str(r.mediators[0].error))
        self.assertTrue(torch.equal(r["survivor"], self.expected))
        self.assertIsNone(r.mediators[1].error)
        self.assertTrue(fast_threads_settle(), "the stopped mediator's thread is still running")

    def test_memory_budget_adds_up_a_mediators_turns(self):
        # 40 MiB kept at each of two hooks: within 100 MiB, past 64 MiB at
        # the end of the second turn (too short for the in-turn check).
        keeps = mediator("""
            keep = []
            h = model.transformer.h[0].output[0]
            keep.append(b"x" * (40 << 20))
            h = model.transformer.h[1].output[0]
            keep.append(b"x" * (40 << 20))
            """, kind="invoke")
        rt = ivc.Runtime()
        self.addCleanup(rt.close)
        for budget, error in ((100 << 20, None), (64 << 20, ivc.MediatorMemoryExceeded),
                              (None, None)):
            with self.subTest(fast_memory_bytes=budget):
                rt.fast_memory_bytes = budget
                # Nothing of the earlier runs is freed during the turns (that
                # would hide growth): their threads are done, their garbage gone.
                self.assertTrue(fast_threads_settle())
                gc.collect()
                r = rt.run(plan(keeps, SURVIVOR), self.model, [self.ids, self.ids],
                           raise_errors=False)
                self.assertIs(type(r.mediators[0].error) if error else r.mediators[0].error, error)
                self.assertTrue(torch.equal(r["survivor"], self.expected))

    def test_a_reply_lost_to_a_caught_recursion_error_ends_the_mediator(self):
        # At some depth the RecursionError comes inside the runtime, between
        # a message and its reply; the body catches it and goes on. Read one
        # reply late, a mediator would run free of the host's turns (a red
        # team kept one computing after run() returned). It fails instead,
        # and its thread ends.
        source = """
            def deep(n):
                if n > 0:
                    return deep(n - 1)
                print("x")
                return 0
            for depth in range(3000):
                try:
                    deep(depth)
                except RecursionError:
                    pass
            h = model.transformer.h[0].output[0]
            after = 1
            """
        rt = ivc.Runtime(fast_timeout_s=10)
        self.addCleanup(rt.close)
        r = rt.run(plan(mediator(source, kind="invoke", saves=["after"]), SURVIVOR), self.model,
                   [self.ids, self.ids], raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.WorkerCrashed)
        self.assertNotIn("after", r)
        self.assertTrue(torch.equal(r["survivor"], self.expected))
        self.assertTrue(fast_threads_settle(), "the mediator's thread is still running")

    def test_only_a_mediator_failed_before_its_last_message_is_interrupted(self):
        # White box, with its thread taken as still running: one that said
        # its last (an error it reported) is ending, and counting it stuck
        # would send its tenant's next mediators to workers (a loaded
        # machine saw it); one the host failed before that is stopped.
        for said_last, stuck in ((True, False), (False, True)):
            link = _links.FastLink(self.rt._fast_guard, 1.0)
            link._thread = threading.get_ident() + 1  # no such thread: nothing raised
            link._said_last = said_last
            link.finish(False)
            self.assertEqual(link._stuck, stuck)
            if stuck:
                _links._threads._mark(link.tenant, -1)

    def test_memory_budget_is_shared_by_a_traces_mediators(self):
        # 40 MiB kept by each of two invokes: each within 64 MiB, not both
        # (a budget each would let n invokes use n times it).
        keeps = mediator("""
            h = model.transformer.h[0].output[0]
            keep = b"x" * (40 << 20)
            h = model.transformer.h[1].output[0]
            """, kind="invoke")
        rt = ivc.Runtime(fast_memory_bytes=64 << 20)
        self.addCleanup(rt.close)
        self.assertTrue(fast_threads_settle())
        gc.collect()
        r = rt.run(plan(keeps, keeps), self.model, [self.ids, self.ids], raise_errors=False)
        stopped = [type(m.error) for m in r.mediators]
        self.assertEqual(stopped.count(ivc.MediatorMemoryExceeded), 1, stopped)
        self.assertIn("FAST mediators of the trace", str(r.errors[0]))

    def test_no_turn_starts_while_a_stopped_call_holds_the_budget(self):
        # Stopped over the budget inside a call that goes on (a sort of a big
        # tensor), a mediator keeps what it grew until its thread ends (white
        # box: charged, given back); meanwhile the trace's other FAST
        # mediators get no turn that could spend it all again.
        budget = _links.MemoryBudget(64 << 20)
        spender = _links.FastLink(self.rt._fast_guard, 1.0, memory=budget)
        waiter = _links.FastLink(self.rt._fast_guard, 1.0, memory=budget)
        spender._charge(100 << 20)
        with self.assertRaisesRegex(ivc.MediatorMemoryExceeded, "has not ended"):
            waiter.send(("value", 1))
        self.assertEqual(budget.left, -(36 << 20))
        # Given back when its thread ends; a turn waiting for room goes on.
        threading.Timer(0.1, spender._give_back).start()
        self.assertTrue(budget.room(5))
        self.assertEqual(budget.left, 64 << 20)

    def test_what_the_host_decodes_or_copies_for_a_mediator_is_charged(self):
        # One string a million times is 8 MB in the mediator, 13 MB encoded,
        # and a million strings (57 MB) once the host decodes the message; a
        # barrier's export is copied by the host, between turns. Both count
        # against the budget.
        saves = mediator('words = ["w" * 8] * 1_000_000\n', kind="invoke", saves=["words"])
        exports = mediator("""
            grid = torch.ones(2**22)
            barrier()
            """, kind="invoke", free_names=["barrier", "torch"])
        takes = mediator("barrier()\nkept = grid.sum()\n", kind="invoke",
                         free_names=["barrier", "grid"], saves=["kept"])
        rt = ivc.Runtime(fast_memory_bytes=24 << 20)
        self.addCleanup(rt.close)
        for p, values in ((plan(saves), {}), (plan(exports, takes), {"barrier": ivc.Barrier(2)})):
            self.assertTrue(fast_threads_settle())
            release_free_memory()
            r = rt.run(p, self.model, [self.ids] * len(p["traces"][0]["mediators"]), values,
                       raise_errors=False)
            self.assertIsInstance(r.mediators[0].error, ivc.MediatorMemoryExceeded)

    def test_memory_budget_must_be_a_byte_count(self):
        for bad in (-1, 1.5, True, "1G"):
            with self.subTest(fast_memory_bytes=bad), self.assertRaises(ValueError):
                ivc.Runtime(fast_memory_bytes=bad)

    def test_budget_counts_only_a_mediators_own_running_time(self):
        # Three mediators that each run 0.6 s after the same hook take 1.8 s
        # of wall time, past a 1.5 s budget measured from the start; each is
        # within its own, in either tier.
        rt = ivc.Runtime(ivc.SandboxConfig(import_allowlist=["torch", "time"], trace_timeout_s=1.5),
                         fast_timeout_s=1.5, pool_size=3)
        self.addCleanup(rt.close)
        slow = "import time\nh = model.transformer.h[0].output[0]\ntime.sleep(0.6)\n"
        p = plan(*[mediator(slow, kind="invoke") for _ in range(3)])
        for tier in ("fast", "isolate"):
            with self.subTest(tier=tier):
                r = rt.run(p, self.model, [self.ids] * 3, tiers=dict.fromkeys(range(3), tier),
                           raise_errors=False)
                self.assertEqual([m.error for m in r.mediators], [None, None, None])

    def test_infinite_loop_times_out(self):
        with WorkerPids() as w:
            err, _ = self.run_failing("""
                h = model.transformer.h[0].output[0]
                while True:
                    pass
                """, "isolate")
        self.assertIsInstance(err, ivc.WorkerTimeout)
        self.assertEqual(err.pid, w.pids[0])
        for _ in range(100):
            if not alive(err.pid):
                break
            time.sleep(0.02)
        self.assertFalse(alive(err.pid), "the timed-out worker is still running")

    def test_memory_bomb_hits_the_address_space_limit(self):
        err, _ = self.run_failing("""
            h = model.transformer.h[0].output[0]
            chunks = []
            while True:
                chunks.append(torch.empty(1 << 26))
            """, "isolate", free_names=["torch"])
        # Refused by RLIMIT_AS (2 GiB past the host's mappings here), long
        # before the deadline: an allocation error, not a timeout.
        self.assertIsInstance(err, RuntimeError)
        self.assertIn("can't allocate memory", str(err))

    def test_worker_killed_mid_protocol(self):
        with WorkerPids() as w:
            def killer():
                for _ in range(200):
                    if w.pids:
                        time.sleep(0.2)
                        os.kill(w.pids[0], signal.SIGKILL)
                        return
                    time.sleep(0.01)
            t = threading.Thread(target=killer)
            t.start()
            err, _ = self.run_failing("""
                h = model.transformer.h[0].output[0]
                while True:
                    h = h + 0
                """, "isolate")
            t.join()
        self.assertIsInstance(err, ivc.WorkerCrashed)
        self.assertIn("died mid-protocol", str(err))

    def test_worker_that_cannot_start_fails_only_its_mediator(self):
        rt = ivc.Runtime(ivc.SandboxConfig(preload=["torch", "no_such_module_ivc"]))
        self.addCleanup(rt.close)
        p = plan(mediator("x = 1\n", kind="invoke", saves=["x"]), SURVIVOR)
        with self.assertLogs("ivc.runtime", "ERROR"):
            r = rt.run(p, self.model, [self.ids, self.ids], tiers={0: "isolate"},
                       raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.WorkerCrashed)
        self.assertIn("no_such_module_ivc", str(r.mediators[0].error))
        self.assertTrue(torch.equal(r["survivor"], self.expected))

    def test_model_error_ends_every_mediator_and_is_raised(self):
        class Boom(torch.nn.Module):
            def __init__(self, inner):
                super().__init__()
                self.inner = inner

            def forward(self, ids):
                self.inner(ids)
                raise RuntimeError("the model failed")
        boom = Boom(self.model)
        p = plan(mediator("h = model.inner.transformer.h[0].output[0].save()\n"
                          "y = model.inner.transformer.h[1].output\n", kind="invoke",
                          saves=["h"]),
                 mediator("x = model.inner.lm_head.output.save()\n", kind="invoke",
                          saves=["x"]))
        ok = plan(mediator("x = model.lm_head.output.save()\n", saves=["x"]))
        for tier in ("fast", "isolate"):
            with WorkerPids() as w:
                with self.assertRaisesRegex(RuntimeError, "the model failed"):
                    self.rt.run(p, boom, [self.ids, self.ids], tiers={0: tier, 1: tier})
                # The mediators were cancelled and ended cleanly: their workers
                # went back to the pool and serve the next trace.
                r = self.rt.run(ok, self.model, [self.ids], tiers={0: tier})
            self.assertTrue(torch.equal(r["x"], self.expected))
            if tier == "isolate":
                self.assertIn(w.pids[-1], w.pids[:2])

    def test_worker_is_reused_only_after_a_clean_end(self):
        ok = plan(mediator("x = model.lm_head.output.save()\n", saves=["x"]))
        bad = plan(mediator("h = model.lm_head.output\nx = 1 / 0\n"))
        with WorkerPids() as w:
            self.rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
            self.rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
            self.rt.run(bad, self.model, [self.ids], tiers={0: "isolate"}, raise_errors=False)
            self.rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(w.pids[0], w.pids[1])
        self.assertEqual(w.pids[1], w.pids[2])
        self.assertNotEqual(w.pids[2], w.pids[3])
        for _ in range(100):
            if not alive(w.pids[2]):
                break
            time.sleep(0.02)
        self.assertFalse(alive(w.pids[2]), "a worker that raised was not retired")

    def test_dead_idle_worker_is_detected_before_use(self):
        ok = plan(mediator("x = model.lm_head.output.save()\n", saves=["x"]))
        with WorkerPids() as w:
            self.rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
            os.kill(w.pids[0], signal.SIGKILL)
            for _ in range(500):
                if not alive(w.pids[0]):
                    break
                time.sleep(0.02)
            self.assertFalse(alive(w.pids[0]), "the killed worker did not exit")
            before = self.rt.stats()["dead_idle"]
            r = self.rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
        self.assertTrue(torch.equal(r["x"], self.expected))
        self.assertNotEqual(w.pids[0], w.pids[1])
        self.assertEqual(self.rt.stats()["dead_idle"], before + 1)

    def test_worker_whose_host_hung_up_exits_quietly(self):
        # A zygote that the host gave up on before it was ready (a runtime
        # closed while it started) has no one to report to.
        host, end = socket.socketpair()
        with host:
            proc = subprocess.Popen([_core.default_worker_path(), "--zygote",
                                     "--channel-fd", str(end.fileno())],
                                    pass_fds=[end.fileno()], stderr=subprocess.PIPE, text=True)
            end.close()
            channel = _core.Channel.from_fd(os.dup(host.fileno()))
            channel.send(_core.encode(("zygote-init", {"preload": []}), _protocol.no_tensors), [])
            channel.close()
        _, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 0, err)
        self.assertEqual(err, "")


class Gate(torch.nn.Module):
    """Identity. Once armed, in a batch of two (the trace's), it waits until a
    plain call of the model from another thread has gone all the way through."""

    def __init__(self):
        super().__init__()
        self.armed = False
        self.entered, self.other_done = threading.Event(), threading.Event()

    def forward(self, x):
        if self.armed and x.shape[0] == 2:
            self.entered.set()
            self.other_done.wait(10)
        return x


class Linear3(torch.nn.Module):
    def __init__(self, gate=None):
        super().__init__()
        torch.manual_seed(0)
        self.a, self.gate, self.head = torch.nn.Linear(4, 4), gate or Gate(), torch.nn.Linear(4, 4)

    def forward(self, x):
        return self.head(self.gate(self.a(x)))


class Refuses(torch.nn.Linear):
    def __setattr__(self, name, value):
        if name == "forward":
            raise AttributeError("this module's forward is fixed")
        super().__setattr__(name, value)


class ModelOutsideTheTrace(unittest.TestCase):
    """What a trace does to its model must stay inside the trace: its thread,
    its run."""

    @classmethod
    def setUpClass(cls):
        cls.rt = ivc.Runtime(pool_size=1)

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def test_another_threads_call_is_not_seen_by_the_trace(self):
        p = plan(mediator("out = model.head.output.save()\n"
                          "model.head.output = model.head.output * 0\n", saves=["out"]))
        xa, xb = torch.ones(2, 4), torch.full((1, 4), 7.0)
        for tier in ("fast", "isolate"):
            model = Linear3().eval()
            with torch.no_grad():
                expect_a, expect_b = model(xa), model(xb)
            model.gate.armed = True
            plain = {}

            def other():
                model.gate.entered.wait(10)
                with torch.no_grad():
                    plain["b"] = model(xb)
                model.gate.other_done.set()

            t = threading.Thread(target=other)
            t.start()
            r = self.rt.run(p, model, [xa], tiers={0: tier})
            t.join(10)
            self.assertTrue(torch.equal(plain["b"], expect_b), tier)
            self.assertTrue(torch.equal(r["out"], expect_a), tier)
            self.assertTrue(torch.equal(r.output, torch.zeros(2, 4)), tier)

    def test_a_module_that_refuses_its_wrapper_leaves_the_model_as_it_was(self):
        model = Linear3(gate=Refuses(4, 4)).eval()
        x = torch.ones(1, 4)
        with torch.no_grad():
            before = model(x)
        p = plan(mediator("model.a.output = model.a.output * 0\n"))
        with self.assertRaisesRegex(AttributeError, "forward is fixed"):
            self.rt.run(p, model, [x], tiers={0: "fast"})
        self.assertEqual([n for n, m in model.named_modules() if "forward" in m.__dict__], [])
        with torch.no_grad():
            self.assertTrue(torch.equal(model(x), before))

    def test_a_trace_from_inside_the_models_forward_is_refused(self):
        rt, p = self.rt, plan(mediator("a = model.lin.output.save()\n", saves=["a"]))

        class TracesItself(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.lin, self.inner = torch.nn.Linear(4, 4), None

            def forward(self, x):
                if self.inner is None:
                    try:
                        self.inner = rt.run(p, self, [x])
                    except ivc.PlanError as e:
                        self.inner = e
                return self.lin(x)

        model = TracesItself()
        done = []
        t = threading.Thread(target=lambda: done.append(rt.run(p, model, [torch.ones(1, 4)])),
                             daemon=True)
        t.start()
        t.join(30)
        self.assertFalse(t.is_alive(), "the nested trace waited on its own model")
        self.assertIsInstance(model.inner, ivc.PlanError)
        self.assertIn("already running on this model", str(model.inner))
        self.assertEqual(done[0]["a"].shape, (1, 4))


if __name__ == "__main__":
    unittest.main()
