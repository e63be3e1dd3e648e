"""The policy inside a worker: block flags enforced by the audit hook (with
the category and event named), the import allowlist, the kernel filter
under it, and the runtime's refusal to isolate when its audit fails."""

import logging
import os
import tempfile
import textwrap

from common import TinyGPT, ivc, mediator, plan, tokens, unittest


class Policy(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = ivc.Runtime(ivc.SandboxConfig(
            block={"import": False}, preload=["torch", "math", "os", "socket", "subprocess"]))
        cls.model = TinyGPT()
        cls.ids = tokens(batch=1)

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def error_of(self, source, rt=None, **kw):
        r = (rt or self.rt).run(plan(mediator(source, **kw)), self.model, [self.ids],
                                tiers={0: "isolate"}, raise_errors=False)
        return r.mediators[0].error

    def assertBlocked(self, source, category, event):
        err = self.error_of(source)
        self.assertIsInstance(err, PermissionError, source)
        self.assertIn(f"(category: {category}, audit event: {event})", str(err))

    def test_block_flags_name_category_and_event(self):
        self.assertBlocked("open('/etc/hostname').read()", "file_read", "open")
        self.assertBlocked("open('/tmp/ivc-x', 'w')", "file_write", "open")
        self.assertBlocked("import os\nos.remove('/tmp/x')", "file_write", "os.remove")
        self.assertBlocked("import os\nos.listdir('/')", "file_read", "os.listdir")
        self.assertBlocked("import subprocess\nsubprocess.Popen(['true'])", "subprocess",
                           "subprocess.Popen")
        self.assertBlocked("import os\nos.system('true')", "subprocess", "os.system")
        self.assertBlocked("import socket\nsocket.socket()", "network", "socket.__new__")
        self.assertBlocked("import socket\nsocket.getaddrinfo(b'localhost', 80)", "network",
                           "socket.getaddrinfo")
        # torch has loaded ctypes already: the import statement is refused by
        # name, and every use of a loaded ctypes raises a ctypes.* event.
        err = self.error_of("import ctypes")
        self.assertIsInstance(err, PermissionError)
        self.assertIn("category: ctypes", str(err))
        self.assertBlocked("import sys\nsys.modules['ctypes'].CDLL(None)", "ctypes", "ctypes.dlopen")
        self.assertBlocked("eval('1 + 1')", "exec", "compile")
        self.assertBlocked("exec(compile('x = 1', 'f', 'exec'))", "exec", "compile")

    def test_namedtuple_and_dataclass_may_build_their_methods(self):
        # They compile text made of the class's identifiers and set a few
        # special attributes of the class they made.
        r = self.rt.run(plan(mediator("""
            import collections, dataclasses, typing
            Pair = collections.namedtuple("Pair", "a b", defaults=[0])
            class Point(typing.NamedTuple):
                x: int
                y: float = 1.5
            @dataclasses.dataclass(frozen=True, order=True)
            class Cfg:
                layer: int = 1
                tags: list = dataclasses.field(default_factory=list)
            x = [Pair(1), Point(2), Cfg() < Cfg(2), repr(Cfg(3))]
            """, saves=["x"])), self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(r["x"], [(1, 0), (2, 1.5), True, "Cfg(layer=3, tags=[])"])
        # Only their own code: a function of the same name is refused as
        # before, and a user function cannot take their code.
        self.assertBlocked("""
            def namedtuple(text):
                return eval(text)
            namedtuple("1")
            """, "exec", "compile")
        self.assertBlocked("""
            import collections
            def namedtuple():
                pass
            namedtuple.__code__ = collections.namedtuple.__code__
            """, "sandbox", "object.__setattr__")
        # Nor text other than identifiers: a made class's field renamed is
        # compiled into a subclass's methods.
        self.assertBlocked("""
            import dataclasses
            @dataclasses.dataclass
            class A:
                x: int = 0
            dataclasses.fields(A)[0].name = "x=print('injected'),y"
            @dataclasses.dataclass
            class B(A):
                pass
            """, "exec", "compile")
        # Nor an identifier whose str subclass formats itself otherwise.
        self.assertBlocked("""
            import dataclasses
            class Name(str):
                def __format__(self, spec):
                    return "x=print('injected'),y"
            @dataclasses.dataclass
            class A:
                x: int = 0
            dataclasses.fields(A)[0].name = Name("x")
            @dataclasses.dataclass
            class B(A):
                pass
            """, "exec", "compile")

    def test_user_code_called_back_in_a_generators_frame_gets_no_allowance(self):
        # A field-name iterable runs user code from C, in namedtuple's or
        # NamedTupleMeta's own frame: it compiles only what namedtuple would,
        # and sets attributes of nothing but the class being made.
        self.assertBlocked("""
            import builtins, collections, functools
            run = functools.partial(builtins.exec, "r = 1")
            collections.namedtuple("P", map(run, [{}]))
            """, "exec", "compile")
        self.assertBlocked("""
            import builtins, collections, functools
            text = "lambda _cls, os: _tuple_new(_cls, (os)); r = 1"
            collections.namedtuple("P", map(functools.partial(builtins.eval, text), [{}]))
            """, "exec", "compile")
        self.assertBlocked("""
            import functools, typing
            class Victim:
                pass
            class Evil:
                pass
            class X(typing.NamedTuple):
                __annotations__ = map(functools.partial(setattr, Victim, "__bases__"), [(Evil,)])
            """, "sandbox", "object.__setattr__")

    def test_sandbox_events_are_always_refused(self):
        self.assertBlocked("import sys\nsys.settrace(None)", "sandbox", "sys.settrace")
        self.assertBlocked("import gc\ngc.get_objects()", "sandbox", "gc.get_objects")
        self.assertBlocked("class A:\n    pass\nclass B:\n    pass\nA().__class__ = B", "sandbox",
                           "object.__setattr__")


    def test_user_code_cannot_add_audit_hooks(self):
        # CPython swallows the refusal and does not add the hook.
        r = self.rt.run(plan(mediator("""
            import sys
            seen = []
            sys.addaudithook(lambda event, args: seen.append(event))
            eval_refused = False
            try:
                eval("1")
            except PermissionError:
                eval_refused = True
            n = len(seen)
            """, saves=["n", "eval_refused"])), self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(r["n"], 0)
        self.assertTrue(r["eval_refused"])

    def test_user_code_cannot_start_threads(self):
        # Threads after lockdown are refused (a root worker ignores
        # RLIMIT_NPROC: they could use up the machine's pids), even with
        # threading importable.
        rt = ivc.Runtime(ivc.SandboxConfig(block={"import": False}, preload=["torch", "math",
                                                                            "threading"]),
                         pool_size=1)
        self.addCleanup(rt.close)
        err = self.error_of("import threading\nthreading.Thread(target=print).start()\n", rt)
        self.assertIsInstance(err, RuntimeError)
        self.assertIn("can't start new thread", str(err))

    def test_user_methods_the_worker_calls_run_under_the_hook(self):
        # Reporting an exception runs its __str__: user code, hook on.
        err = self.error_of("""
            class Probe(Exception):
                def __str__(self):
                    try:
                        eval("1")
                        return "not refused"
                    except PermissionError as e:
                        return str(e)
            raise Probe()
            """)
        self.assertIn("category: exec", str(err))
        # Sending saves runs none of their methods: a tensor subclass (its
        # __torch_function__) is refused by type, containers are read
        # through the C API (a list subclass's __iter__ never runs).
        err = self.error_of("""
            class Sneaky(torch.Tensor):
                pass
            x = torch.ones(2).as_subclass(Sneaky)
            """, saves=["x"], free_names=["torch"])
        self.assertIsInstance(err, TypeError)
        self.assertIn("'Sneaky' cannot cross", str(err))
        r = self.rt.run(plan(mediator("""
            class Loud(list):
                def __iter__(self):
                    raise RuntimeError("__iter__ ran")
                def __getitem__(self, i):
                    raise RuntimeError("__getitem__ ran")
            x = Loud([1, 2])
            """, saves=["x"])), self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(r["x"], [1, 2])
        # Nor a class's `__class__` (isinstance would read it).
        err = self.error_of("""
            class Disguised:
                @property
                def __class__(self):
                    raise RuntimeError("__class__ ran")
            x = Disguised()
            """, saves=["x"])
        self.assertIsInstance(err, TypeError)
        self.assertIn("cannot cross", str(err))

    def test_finalizers_of_user_objects_run_under_the_hook(self):
        # A user object's __del__ runs after its job's code returned, when a
        # collection on the worker's own thread finds it (thresholds 1, 1:
        # at almost every allocation): a cycle of its own, or the job's
        # namespace, itself a cycle (its envoys hold the mediator). Both run as user code, and a finalizer
        # cannot end its collection's user-code status by calling the
        # collector's callbacks itself. A second job in the same worker
        # reads what the finalizers saw.
        rt = ivc.Runtime(ivc.SandboxConfig(block={"import": False}), pool_size=1)
        self.addCleanup(rt.close)
        rt.run(plan(mediator("""
            import gc, math
            class Probe:
                def __init__(self, name):
                    self.name = name
                def __del__(self):
                    for callback in gc.callbacks:
                        callback("stop", {})
                    try:
                        eval("1")
                        verdict = "ran"
                    except PermissionError:
                        verdict = "refused"
                    math.ivc_finalized.append((self.name, verdict))
            math.ivc_finalized = []
            held = Probe("namespace")
            gc.disable()  # the cycle is garbage only once the job is over
            cycle = Probe("cycle")
            cycle.me = cycle
            gc.set_threshold(1, 1)
            gc.enable()
            """)), self.model, [self.ids], tiers={0: "isolate"})
        r = rt.run(plan(mediator("""
            import math
            seen = sorted(math.ivc_finalized)
            """, saves=["seen"])), self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(r["seen"], [("cycle", "refused"), ("namespace", "refused")])

    def test_the_workers_own_steps_call_nothing_a_job_rebound(self):
        # The worker seeds each job's generator and reads version counters
        # with the hook off: a job that rebinds torch.default_generator or
        # torch.Tensor._version must not get its code run there.
        rt = ivc.Runtime(ivc.SandboxConfig(block={"import": False}), pool_size=1)
        self.addCleanup(rt.close)
        rt.run(plan(mediator("""
            import math
            math.ivc_called = []
            class Generator:
                def manual_seed(self, seed):
                    math.ivc_called.append("manual_seed")
            torch.default_generator = Generator()
            torch.Tensor._version = property(lambda t: math.ivc_called.append("_version") or 0)
            h = model.transformer.h[0].output[0]
            """, free_names=["torch"])), self.model, [self.ids], tiers={0: "isolate"})
        r = rt.run(plan(mediator("""
            import math
            h = model.transformer.h[0].output[0]
            called = list(math.ivc_called)
            """, saves=["called"])), self.model, [self.ids], tiers={0: "isolate"})
        self.assertEqual(r["called"], [])

    def test_the_hosts_stderr_and_capabilities_are_out_of_reach(self):
        # stderr is an open file description the worker shares with the
        # host: its flags and offset are not the worker's to change.
        for src in ("torch.os.set_blocking(2, False)\n", "torch.os.lseek(2, 0, 0)\n"):
            err = self.error_of(src, free_names=["torch"])
            self.assertIsInstance(err, PermissionError, src)
        # The worker (idle in the pool now) holds no capability, root or not.
        r = self.rt.run(plan(mediator("pid = torch.os.getpid()\n", saves=["pid"],
                                      free_names=["torch"])),
                        self.model, [self.ids], tiers={0: "isolate"})
        with open(f"/proc/{r['pid']}/status") as f:
            caps = dict(line.split(":\t", 1) for line in f if line.startswith("Cap"))
        for name in ("CapEff", "CapPrm", "CapInh", "CapAmb"):
            self.assertEqual(int(caps[name], 16), 0, name)

    def test_kernel_filter_without_the_hook(self):
        # os.open raises the 'open' audit event too, so go below it: the
        # filter refuses what no audit event covers. (Not os.fstat: whether
        # that reaches the allowed fstat or the refused newfstatat depends on
        # the C library's version.)
        err = self.error_of("import os\nos.fstatvfs(0)\n")
        self.assertIsInstance(err, PermissionError)
        self.assertIn("[Errno 1]", str(err))
        err = self.error_of("import os\nos.getcwd()\n")
        self.assertIsInstance(err, PermissionError)

    def test_unblocked_flag_still_meets_the_filter(self):
        rt = ivc.Runtime(ivc.SandboxConfig(block={"file_read": False}))
        self.addCleanup(rt.close)
        err = self.error_of("open('/etc/hostname').read()", rt)
        # No category: the hook let it pass, seccomp refused the openat.
        self.assertIsInstance(err, PermissionError)
        self.assertNotIn("category", str(err))
        self.assertIn("[Errno 1] Operation not permitted", str(err))

    def test_import_allowlist(self):
        rt = ivc.Runtime(ivc.SandboxConfig(import_allowlist=["math"]))
        self.addCleanup(rt.close)
        self.assertIsNone(self.error_of("import math\nx = math.pi", rt))
        err = self.error_of("import os", rt)
        self.assertIsInstance(err, ImportError)
        self.assertIn("import of 'os' is not allowed", str(err))
        # Reached another way, the audit hook still refuses loading a module.
        err = self.error_of("__builtins__['__import__'].__self__", rt)
        self.assertIsNotNone(err)

    def test_worker_facts(self):
        rt = self.rt
        ok = plan(mediator("x = 1\n", saves=["x"]))
        rt.run(ok, self.model, [self.ids], tiers={0: "isolate"})
        facts, uids = worker_facts(rt)
        self.assertTrue(facts["seccomp"])
        self.assertTrue(facts["no_new_privs"])
        self.assertTrue(facts["audit_hook"])
        self.assertEqual(facts["rlimits"]["file_size"], 0)
        if os.geteuid() == 0:
            self.assertEqual(facts["netns"], "new")
            # A root host's workers run as nobody once locked down.
            self.assertEqual(facts["uid"], 65534)
            self.assertEqual(uids, ["65534"] * 8)
        else:
            self.assertEqual(facts["uid"], os.getuid())

    @unittest.skipUnless(os.geteuid() == 0, "only a root host's workers change user")
    def test_run_as_uid_picks_the_workers_user(self):
        for uid in (4242, 0):
            with self.subTest(uid=uid):
                rt = ivc.Runtime(ivc.SandboxConfig(run_as_uid=uid))
                self.addCleanup(rt.close)
                rt.run(plan(mediator("x = 1\n", saves=["x"])), self.model, [self.ids],
                       tiers={0: "isolate"})
                facts, uids = worker_facts(rt)
                self.assertEqual(facts["uid"], uid)
                self.assertEqual(uids, [str(uid)] * 8)
        with self.assertRaisesRegex(ValueError, "run_as_uid"):
            ivc.Runtime(ivc.SandboxConfig(run_as_uid=2**32 - 1))


def worker_facts(rt):
    """What the pool's worker reported of its lockdown in READY, and its real,
    effective, saved and filesystem uids and gids as /proc shows them."""
    w = rt._pool.acquire(rt.sandbox.encoded(), "")
    try:
        with open(f"/proc/{w.pid}/status") as f:
            lines = dict(line.split(":", 1) for line in f)
        return w.facts, lines["Uid"].split() + lines["Gid"].split()
    finally:
        rt._pool.release(w, True)


class MediatorLibrary(unittest.TestCase):
    """The mediator library itself, in-process, with run_user/call_user that
    count how deep in user code they are, as the worker's hook does."""

    # A request whose error the body catches (`except Exception` is FAST).
    CATCHES_AND_GOES_ON = """
        try:
            print("a request")
        except Exception:
            seen.append("caught")
        seen.append("went on")
        """

    def run_source(self, port, source, values):
        from ivc import _mediator
        depth = values["depth"] = [0]

        def as_user(fn, *args):
            depth[0] += 1
            try:
                return fn(*args)
            finally:
                depth[0] -= 1

        def run_user(items, ns):
            as_user(lambda: [exec(compile(src, name, "exec"), ns) for src, name in items])

        job = {"receiver": "model", "tree": {"key": "release", "modules": [], "params": []},
               "values": values, "tracer": None, "definitions": [],
               "first_line": 1, "source": textwrap.dedent(source), "file": "release.py",
               "saves": [], "exports": [], "import_allowlist": None}
        return _mediator.run_job(port, job, run_user, as_user)

    def test_what_a_failed_job_leaves_is_dropped_as_user_code(self):
        seen = []

        class Port:
            tensors = None

            def send(self, msg):
                pass

        source = """
            class Failure(Exception):
                def __del__(self):
                    seen.append(("error", depth[0]))
            def fail():
                def steps():
                    try:
                        yield 1
                    finally:
                        seen.append(("generator", depth[0]))
                running = steps()
                next(running)
                raise Failure("reported")
            fail()
            """
        self.assertFalse(self.run_source(Port(), source, {"seen": seen}))
        # Freed with the error's frames, after its code ended: as user code.
        self.assertEqual(sorted(seen), [("error", 1), ("generator", 1)])

    def test_a_closed_channel_ends_user_code_past_its_handlers(self):
        # `except Exception` is FAST; the channel's error is an OSError. Once
        # the host has given up, the mediator's code must not go on unmetered.
        from ivc import _core
        seen = []

        class Closed:
            tensors = None

            def send(self, msg):
                raise _core.ChannelClosed("closed")

        with self.assertRaises(_core.ChannelClosed):
            self.run_source(Closed(), self.CATCHES_AND_GOES_ON, {"seen": seen})
        self.assertEqual(seen, [])

    def test_a_reply_never_read_puts_the_channel_out_of_step(self):
        # A RecursionError (or a MemoryError) between a message and its
        # reply: the next reply read would answer the wrong message. User
        # code catching it must not go on, nor the mediator say anything more.
        from ivc import _core
        seen = []

        class Stuttering:
            tensors = None
            sent = []

            def send(self, msg):
                self.sent.append(msg[0])

            def recv(self):
                raise RecursionError("maximum recursion depth exceeded")

        port = Stuttering()
        with self.assertRaises(_core.ChannelClosed):
            self.run_source(port, self.CATCHES_AND_GOES_ON, {"seen": seen})
        self.assertEqual((seen, port.sent), ([], ["log"]))


class WriteXorExecute(unittest.TestCase):
    def test_without_a_jit_executable_memory_is_refused(self):
        passed, lines = ivc.audit(allow_jit=False)
        self.assertTrue(passed, "\n".join(lines))
        self.assertTrue(any(l.startswith("refused") and "exec-memory" in l for l in lines))
        passed, lines = ivc.audit(allow_jit=True)
        self.assertTrue(any(l.startswith("skipped") and "exec-memory" in l for l in lines))
        # oneDNN is off in such a worker; convolutions still run.
        rt = ivc.Runtime(ivc.SandboxConfig(allow_jit=False))
        self.addCleanup(rt.close)
        r = rt.run(plan(mediator(
            "x = torch.nn.functional.conv1d(torch.ones(1, 2, 5), torch.ones(3, 2, 2))\n"
            "import torch\nonednn = torch.backends.mkldnn.enabled\n",
            saves=["x", "onednn"], free_names=["torch"])), TinyGPT(), [tokens(batch=1)],
            tiers={0: "isolate"})
        self.assertEqual(r["x"].shape, (1, 3, 4))
        self.assertFalse(r["onednn"])


class Audit(unittest.TestCase):
    def test_audit_passes_here(self):
        passed, lines = ivc.audit()
        self.assertTrue(passed, "\n".join(lines))
        names = {l.split()[1] for l in lines if l.startswith("refused")}
        for canary in ("open-host-file", "write-outside-scratch", "socket", "connect", "execve",
                       "fork", "clone3", "ptrace", "io_uring", "x32-syscall", "import-ctypes"):
            self.assertIn(canary, names)

    def test_failed_audit_refuses_isolation(self):
        # A "worker" that runs no canaries: the audit cannot pass.
        with tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False) as f:
            f.write("#!/bin/sh\necho 'refused  fake  nothing'\nexit 0\n")
        os.chmod(f.name, 0o755)
        self.addCleanup(os.unlink, f.name)
        model, ids = TinyGPT(), tokens(batch=1)
        p = plan(mediator("x = 1\n", saves=["x"]))
        with self.assertLogs("ivc.runtime", logging.ERROR):
            rt = ivc.Runtime(worker_path=f.name)
        self.addCleanup(rt.close)
        self.assertFalse(rt.audit_passed)
        with self.assertRaises(ivc.SandboxUnavailable):
            rt.run(p, model, [ids], tiers={0: "isolate"})
        self.assertEqual(rt.run(p, model, [ids])["x"], 1)  # FAST still runs
        with self.assertLogs("ivc.runtime", logging.CRITICAL) as logs, \
                self.assertWarns(RuntimeWarning):
            unsafe = ivc.Runtime(worker_path=f.name, unsafe_allow_failed_audit=True)
        self.addCleanup(unsafe.close)
        self.assertIn("AUDIT FAILED", logs.output[0])
        self.assertTrue(unsafe.unsafe)


if __name__ == "__main__":
    unittest.main()
