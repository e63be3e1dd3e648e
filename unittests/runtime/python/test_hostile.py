"""A worker is hostile: the host must survive anything it sends. User code
here writes crafted bytes straight onto its channel (fd 3), which the
sandbox allows (it is the worker's own channel); the host must detect the
violation, retire the worker, and finish the model run and the other
mediators."""

import errno
import math
import os
import random
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

from common import TinyGPT, ivc, mediator, plan, tokens, torch, unittest
from ivc import _core, _tensors  # noqa: F401  (_tensors registers torch's types)

FRAME = """
def frame(payload, length=None):
    n = len(payload) if length is None else length
    return (0x31435649).to_bytes(4, "little") + n.to_bytes(4, "little") + payload

def send_all(fd, data):
    import os, time
    data = memoryview(data)
    while data:
        try:
            data = data[os.write(fd, data):]
        except BlockingIOError:
            time.sleep(0.001)

def read_some(fd):
    import os, time
    while True:
        try:
            return os.read(fd, 1 << 20)
        except BlockingIOError:
            time.sleep(0.001)
"""

SURVIVOR = mediator("survivor = model.lm_head.output.save()\n", kind="invoke",
                    saves=["survivor"])


# A tensor descriptor of one float32 in the worker's first arena space.
ONE_FLOAT = "lambda t: ('float32', (1,), 1, 0, 4)"


def sent(message, desc=None, write="os.write"):
    """Worker code that writes one encoded `message` (Python source) to its
    channel, its tensors described by `desc` (a lambda's source), if any."""
    lines = ["import ivc._core as c"] + ([f"desc = {desc}"] if desc else [])
    return "\n".join(lines + [f"{write}(fd, frame(c.encode({message}, "
                               f"{'desc' if desc else 'None'})))"])


class Hostile(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        sandbox = ivc.SandboxConfig(
            block={"import": False, "network": False},
            preload=["torch", "math", "os", "socket", "array", "ivc._worker"],
            trace_timeout_s=5.0, arena_max_bytes=1 << 30)
        cls.rt = ivc.Runtime(sandbox, pool_size=2)
        cls.model = TinyGPT()
        cls.ids = tokens(batch=2)
        cls.expected = cls.model(cls.ids).detach()

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def attack(self, code):
        source = ("import os\nimport ivc._worker\nfd = ivc._worker.CHANNEL_FD\n"
                  "h = model.transformer.h[0].output[0]\n" + code +
                  "\nwhile True:\n    pass\n")
        p = plan(mediator(source, kind="invoke", definitions=[("frame", FRAME)]), SURVIVOR)
        r = self.rt.run(p, self.model, [self.ids, self.ids], tiers={0: "isolate", 1: "isolate"},
                        raise_errors=False)
        self.assertIsNone(r.mediators[1].error)
        self.assertTrue(torch.equal(r["survivor"], self.expected))
        return r.mediators[0].error

    def assertViolation(self, err, text):
        self.assertIsInstance(err, ivc.ProtocolViolation)
        self.assertIn(text, str(err))

    def test_garbage(self):
        self.assertViolation(self.attack("os.write(fd, b'\\x00' * 64)"), "wrong magic")

    def test_oversized_frame(self):
        self.assertViolation(self.attack("os.write(fd, frame(b'', length=0xfffffff0))"),
                             "exceeds the limit")

    def test_undecodable_payload(self):
        self.assertViolation(self.attack("os.write(fd, frame(b'\\x7f'))"), "unknown tag 0x7f")

    def test_nesting_bomb(self):
        self.assertViolation(self.attack("os.write(fd, frame(b'\\x07\\x01' * 5000 + b'\\x00'))"),
                             "nesting deeper")

    def test_count_bomb(self):
        # A list claiming 2^62 elements in a 10-byte frame.
        self.assertViolation(
            self.attack("os.write(fd, frame(b'\\x07\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x80\\x40'))"),
            "exceeds the input")

    def test_a_barrier_passes_only_names_nothing_supplied(self):
        # A worker's barrier frame that rebinds its peer's caller-supplied
        # `k` (which a guard may have checked) and an import is cut down to
        # the names nobody supplied.
        source = ("import os, ivc._worker, ivc._core as c\n"
                  "h = model.transformer.h[0].output[0]\n"
                  "os.write(ivc._worker.CHANNEL_FD, frame(c.encode(('barrier', 'barrier', 2, "
                  "{'k': 1 << 40, 'math': 'not math', 'shared': 5}, []), None)))\n"
                  "while True:\n    pass\n")
        peer = mediator("barrier()\nseen = [k, shared, math.pi]\n", kind="invoke",
                        free_names=["barrier", "k", "shared", "math"], saves=["seen"])
        p = plan(mediator(source, kind="invoke", definitions=[("frame", FRAME)],
                          free_names=["barrier"]), peer)
        for tier in ("fast", "isolate"):
            r = self.rt.run(p, self.model, [self.ids, self.ids],
                            {"barrier": ivc.Barrier(2), "k": 3, "math": math},
                            tiers={0: "isolate", 1: tier}, raise_errors=False)
            self.assertIsNone(r.mediators[1].error, tier)
            self.assertEqual(r["seen"], [3, 5, math.pi], tier)

    def test_a_barrier_passes_only_values_of_the_kinds_the_plan_assumed(self):
        # The peer's verdict rests on `n` being a number (`n * 4096`); a
        # worker that gives it a string at the barrier fails that peer.
        source = ("import os, ivc._worker, ivc._core as c\n"
                  "h = model.transformer.h[0].output[0]\n"
                  "os.write(ivc._worker.CHANNEL_FD, frame(c.encode(('barrier', 'barrier', 2, "
                  "{'n': 'x' * 1024}, []), None)))\n"
                  "while True:\n    pass\n")
        peer = mediator("barrier()\nsized = len(n * 4096)\n", kind="invoke",
                        free_names=["barrier", "n"], free_types={"n": "number"}, saves=["sized"])
        p = plan(mediator(source, kind="invoke", definitions=[("frame", FRAME)],
                          free_names=["barrier"]), peer)
        for tier in ("fast", "isolate"):
            r = self.rt.run(p, self.model, [self.ids, self.ids], {"barrier": ivc.Barrier(2)},
                            tiers={0: "isolate", 1: tier}, raise_errors=False)
            self.assertIn("gave 'n' a str, where the plan's verdict assumed a number",
                          str(r.mediators[1].error), tier)
            self.assertNotIn("sized", r.saves, tier)

    def test_barriers_one_after_another_never_deepen_the_hosts_stack(self):
        # A barrier of one participant opens at once; thousands in a row
        # are driven one after another, not one inside another, and past
        # MAX_BARRIERS the mediator is refused (not a RecursionError out of
        # run(), with the host's turn lock left taken).
        source = ("import os, ivc._worker, ivc._core as c\n"
                  "h = model.transformer.h[0].output[0]\n"
                  "fd = ivc._worker.CHANNEL_FD\n"
                  "one = frame(c.encode(('barrier', 'b', 1, {}, []), None))\n"
                  "for _ in range(5000):\n"
                  "    send_all(fd, one)\n"
                  "    read_some(fd)\n"
                  "while True:\n    pass\n")
        p = plan(mediator(source, kind="invoke", definitions=[("frame", FRAME)]), SURVIVOR)
        # (A budget the 4096 round trips fit in on a loaded machine.)
        rt = ivc.Runtime(ivc.SandboxConfig(block={"import": False, "network": False},
                                           preload=["torch", "os", "ivc._worker"],
                                           trace_timeout_s=120.0), pool_size=1)
        self.addCleanup(rt.close)
        r = rt.run(p, self.model, [self.ids, self.ids], tiers={0: "isolate", 1: "fast"},
                   raise_errors=False)
        self.assertViolation(r.mediators[0].error, "more than 4096 barriers")
        self.assertIsNone(r.mediators[1].error)
        # FAST traces still take their turns.
        again = rt.run(plan(SURVIVOR), self.model, [self.ids], tiers={0: "fast"})
        self.assertTrue(torch.equal(again["survivor"], self.expected))

    def test_a_message_changes_a_delivery_once(self):
        code = sent("('end', {}, [(0, h), (0, h)])", ONE_FLOAT)
        self.assertViolation(self.attack(code), "changes one delivery twice")

    def test_keys_chosen_to_share_a_hash(self):
        # hash(2.0 ** (61 * j)) is 1 for every j, so pairs of such floats
        # share a hash too: a set or dict of many would take the host
        # quadratic time to build, holding the GIL.
        pairs = "(2.0 ** (61 * i), 2.0 ** (61 * j)) for i in range(8) for j in range(8)"
        for made in ("{" + pairs + "}", "{" + pairs.replace(" for", ": 0 for", 1) + "}"):
            code = sent(f"('end', {{'x': {made}}}, [])")
            self.assertViolation(self.attack(code), "keys of one hash")

    def test_keys_chosen_for_one_bucket_of_a_hash_table(self):
        # Ints are their own hashes: 160,000 multiples of a hash table's
        # bucket count, all of different hashes, took 30 s and more of the
        # host's time to count. Decoded in a child given 10 s of CPU (it
        # takes a fraction of a second), so that a regression fails, not hangs.
        check = textwrap.dedent("""
            import resource, sys
            sys.path[:0] = %r
            from ivc import _core
            resource.setrlimit(resource.RLIMIT_CPU, (10, 10))
            keys = {i * 172933 * 85229 for i in range(1, 160001)}
            msg = _core.decode(_core.encode(("end", {"x": keys}, []), None), None)
            assert msg[1]["x"] == keys
            """) % (sys.path,)
        child = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
        self.assertEqual(child.returncode, 0, child.stderr[-2000:])

    def test_unknown_message(self):
        code = sent("('bogus', 1)")
        self.assertViolation(self.attack(code), "unknown message 'bogus'")

    def test_a_module_call_message_of_the_wrong_shape(self):
        for call, says in (("('call', 'lm_head', [1], {}, [])", "must be a tuple"),
                           ("('call', 'lm_head', (0,) * 17, {}, [])", "at most 16"),
                           ("('call', 'lm_head', (), {1: 2}, [])", "dict of at most 16 names")):
            code = sent(call)
            self.assertViolation(self.attack(code), says)

    def test_tensor_outside_the_arena(self):
        for space, offset in ((999, 0), (1, 1 << 40)):
            code = sent("('end', {'x': h}, [])",
                        f"lambda t: ('float32', (4,), {space}, {offset}, 16)")
            self.assertViolation(self.attack(code), "out of bounds")

    def test_mutation_of_an_unknown_delivery(self):
        code = sent("('end', {}, [(77, h)])", ONE_FLOAT)
        self.assertViolation(self.attack(code), "unknown delivery 77")

    def test_a_message_names_at_most_so_many_tensors(self):
        # Each descriptor costs the host a view, however few bytes it names.
        code = sent("('end', {'x': [h] * 70000}, [])", ONE_FLOAT, write="send_all")
        self.assertViolation(self.attack(code), "more than 65536 tensors")

    def test_the_hosts_work_on_a_workers_messages_is_charged_to_it(self):
        # A swap the host refuses, sent again and again: waiting on the
        # worker costs it almost nothing, but the host's viewing and
        # refusing each message is charged, so its budget runs out.
        rt = ivc.Runtime(ivc.SandboxConfig(block={"import": False, "network": False},
                                           preload=["torch", "os", "ivc._worker"],
                                           trace_timeout_s=1.0), pool_size=1)
        self.addCleanup(rt.close)
        source = ("import os, torch, ivc._worker, ivc._core as c\n"
                  "x = model.transformer.h[0].output\n"
                  "fd = ivc._worker.CHANNEL_FD\n"
                  "d = lambda t: ('float32', (1,), 1, 0, 4)\n"
                  "swap = frame(c.encode(('swap', 'transformer.h.0', 'output', 0, "
                  "[torch.zeros(1)] * 60000, []), d))\n"
                  "for _ in range(200):\n"
                  "    send_all(fd, swap)\n"
                  "    read_some(fd)\n"
                  "os.write(fd, frame(c.encode(('end', {}, []), None)))\n")
        p = plan(mediator(source, kind="invoke", definitions=[("frame", FRAME)]), SURVIVOR)
        r = rt.run(p, self.model, [self.ids, self.ids], tiers={0: "isolate", 1: "isolate"},
                   raise_errors=False)
        self.assertIsInstance(r.mediators[0].error, ivc.WorkerTimeout)
        self.assertIsNone(r.mediators[1].error)

    def test_mutation_of_something_other_than_a_tensor(self):
        # It fails its mediator only; the run and its peer go on.
        code = sent("('end', {}, [(0, 'not a tensor')])")
        self.assertViolation(self.attack(code), "a mutation must be (delivery id, tensor)")

    def test_a_message_cannot_make_the_host_copy_more_than_the_arena(self):
        # One descriptor repeated: each would cost the host a 64 MiB copy.
        code = sent("('end', {'x': [h] * 200}, [])",
                    "lambda t: ('uint8', (64 << 20,), 1, 0, 64 << 20)")
        self.assertViolation(self.attack(code), "references more than")

    def test_log_flood_is_cut(self):
        p = plan(mediator("for i in range(3000):\n    tracer.log('x' * 1000)\n"))
        for tier in ("fast", "isolate"):
            r = self.rt.run(p, self.model, [self.ids], tiers={0: tier})
            self.assertEqual(len(r.logs), 1049)
            self.assertIn("cut at 1048576 bytes", r.logs[-1])

    def test_descriptors_passed_to_the_host(self):
        code = ("import socket, array\n"
                "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM, 0, fileno=fd)\n"
                "s.sendmsg([frame(b'\\x00')], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, "
                "array.array('i', [0, 1, 2]))])")
        self.assertViolation(self.attack(code), "file descriptors")

    def test_truncated_frame_then_silence(self):
        err = self.attack("os.write(fd, frame(b'', length=100) + b'\\x00' * 10)")
        self.assertIsInstance(err, ivc.WorkerTimeout)

    def test_truncated_frame_then_exit(self):
        err = self.attack("os.write(fd, frame(b'', length=100) + b'\\x00' * 10)\nos._exit(0)")
        self.assertIsInstance(err, ivc.WorkerCrashed)
        self.assertIn("mid-frame", str(err))


def _stat(pid):
    """(state, ppid, cpu ticks) of a process, or None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None
    return fields[0], int(fields[1]), int(fields[11]) + int(fields[12])


class WorkerProcess(unittest.TestCase):
    """What a worker's process can reach beside its channel. Its code may
    go on after its job's end (it can write END itself): the pool keeps idle
    workers stopped, and a zygote's workers die with it. Its stderr is a
    pipe the host relays into its log, capped."""

    def setUp(self):
        self.log = tempfile.TemporaryFile("a+")
        self.log.write("HOST-SECRET\n")
        self.log.flush()
        sandbox = ivc.SandboxConfig(block={"import": False},
                                    preload=["torch", "numpy", "os", "fcntl", "ivc._worker"],
                                    trace_timeout_s=5.0)
        self.rt = ivc.Runtime(sandbox, pool_size=1, worker_stderr=self.log.fileno())
        self.model = TinyGPT()

    def tearDown(self):
        self.rt.close()
        self.log.close()

    def log_text(self, until, wait_s=5.0):
        # The relay passes stderr on from a thread of its own.
        deadline = time.monotonic() + wait_s
        while True:
            self.log.seek(0)
            text = self.log.read()
            if until in text or time.monotonic() > deadline:
                return text
            time.sleep(0.02)

    def test_the_hosts_log_is_behind_a_relay(self):
        # The worker holds a pipe's write end: the log itself can be
        # neither read nor mapped, and what the worker writes arrives.
        p = plan(mediator(
            "import os, fcntl\n"
            "try:\n"
            "    read = os.pread(2, 64, 0)\n"
            "except OSError as e:\n"
            "    read = e.errno\n"
            "mode = fcntl.fcntl(2, fcntl.F_GETFL) & os.O_ACCMODE\n"
            "os.write(2, b'worker says hello\\n')\n",
            saves=["read", "mode"]))
        r = self.rt.run(p, self.model, [tokens()], tiers={0: "isolate"})
        self.assertEqual(r["read"], errno.ESPIPE)
        self.assertEqual(r["mode"], os.O_WRONLY)
        self.assertIn("worker says hello\n", self.log_text("worker says hello"))

    def test_a_stderr_flood_reaches_the_log_capped(self):
        p = plan(mediator("import os\n"
                          "for _ in range(256):\n"
                          "    os.write(2, b'x' * 65536)\n"))
        self.rt.run(p, self.model, [tokens()], tiers={0: "isolate"})
        text = self.log_text("bytes of worker stderr")
        # A burst of 256 KiB, a trickle of 16 KiB a second, and a line
        # that counts the rest.
        self.assertLess(len(text), 512 << 10)
        self.assertIn("ivc: dropped ", text)
        self.assertGreater(text.count("x"), 128 << 10)
        self.assertGreater(self.rt.stats()["stderr_dropped"], 8 << 20)

    def test_each_worker_draws_numpy_numbers_of_its_own(self):
        p = plan(mediator("import numpy\ndraws = numpy.random.rand(4).tolist()\n",
                          saves=["draws"]))
        draws = [self.rt.run(p, self.model, [tokens()], tiers={0: "isolate"}, tenant=t)["draws"]
                 for t in ("alice", "bob")]
        self.assertNotEqual(draws[0], draws[1])

    def run_saving_pid(self, source):
        p = plan(mediator(source, saves=["pid"], definitions=[("frame", FRAME)]))
        return self.rt.run(p, self.model, [tokens()], tiers={0: "isolate"})["pid"]

    def test_an_idle_worker_runs_nothing(self):
        pid = self.run_saving_pid(
            "import os, ivc._worker, ivc._core as c\n"
            "os.write(ivc._worker.CHANNEL_FD, frame(c.encode(('end', {'pid': os.getpid()}, []), lambda t: None)))\n"
            "while True:\n    pass\n")
        self.assertEqual(self.rt.stats()["idle"], 1)
        time.sleep(0.2)  # SIGSTOP lands asynchronously
        state, _, ticks = _stat(pid)
        time.sleep(0.5)
        self.assertEqual(state, "T")
        self.assertEqual(_stat(pid)[2], ticks)

    def test_a_zygotes_workers_die_with_it(self):
        pid = self.run_saving_pid("import os\npid = os.getpid()\n")
        zygote = _stat(pid)[1]
        os.kill(zygote, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while (s := _stat(pid)) is not None and s[0] != "Z" and time.monotonic() < deadline:
            time.sleep(0.05)
        s = _stat(pid)
        self.assertTrue(s is None or s[0] == "Z", s)


class HostDecoder(unittest.TestCase):
    """The host's decoder on arbitrary bytes: a CodecError or a value, never
    a crash, and never a tensor the importer did not make."""

    def importer(self, *desc):
        self.tensors += 1
        return torch.zeros(0)

    def test_random_and_mutated_bytes(self):
        self.tensors = 0
        rng = random.Random(1234)
        valid = _core.encode(("end", {"a": [1, 2.5, "x", b"y", None, True, (1,), {3}],
                                      "b": torch.float16}, []), lambda t: None)
        for i in range(20000):
            if i % 2:
                data = bytes(rng.randrange(256) for _ in range(rng.randrange(64)))
            else:
                b = bytearray(valid)
                for _ in range(rng.randrange(1, 4)):
                    b[rng.randrange(len(b))] = rng.randrange(256)
                data = bytes(b[:rng.randrange(len(b) + 1)])
            try:
                _core.decode(data, self.importer)
            except _core.CodecError:
                pass
            except (TypeError, ValueError) as e:  # e.g. an unhashable Python value
                self.assertNotIsInstance(e, SystemError)

    def test_limits(self):
        deep = b"\x07\x01" * 40 + b"\x00"
        with self.assertRaises(_core.CodecError):
            _core.decode(deep, None)
        value = _core.decode(deep, None, max_depth=64)
        for _ in range(40):
            self.assertIsInstance(value, list)
            value = value[0]
        self.assertIsNone(value)
        many = _core.encode(list(range(1000)), None)
        with self.assertRaisesRegex(_core.CodecError, "more than 100 values"):
            _core.decode(many, None, max_items=100)


if __name__ == "__main__":
    unittest.main()
