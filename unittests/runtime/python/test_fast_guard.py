"""The audit hook behind FAST mediators: a mediator the analyzer wrongly
called FAST still cannot start processes, open sockets, write files, call
through ctypes or watch other threads; what libraries do while they import
lazily still works; and no other thread, the model's included, is judged."""

import os
import tempfile

import torch

from common import TinyGPT, ivc, mediator, plan, tokens, unittest

# Modules a FAST mediator never gets from the analyzer, allowlisted here so
# that the guard, not the import gate, is what refuses.
REACHABLE = ["torch", "math", "os", "socket", "subprocess", "sys", "gc", "colorsys"]


class FastGuard(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rt = ivc.Runtime(ivc.SandboxConfig(import_allowlist=REACHABLE), pool_size=1)
        cls.model = TinyGPT()
        cls.ids = tokens(batch=1)

    @classmethod
    def tearDownClass(cls):
        cls.rt.close()

    def run_fast(self, source, model=None, **kw):
        return self.rt.run(plan(mediator(source, tier="fast", **kw)), model or self.model,
                           [self.ids], raise_errors=False)

    def assertBlocked(self, source, category, event):
        err = self.run_fast(source).mediators[0].error
        self.assertIsInstance(err, PermissionError, source)
        self.assertIn(f"blocked in a FAST mediator (category: {category}, audit event: {event})",
                      str(err))

    def test_what_a_worker_refuses_a_fast_mediator_cannot_do_either(self):
        with tempfile.TemporaryDirectory() as d:
            marker = os.path.join(d, "ran")
            self.assertBlocked(f"import os\nos.system('touch {marker}')", "subprocess", "os.system")
            self.assertBlocked(f"import subprocess\nsubprocess.Popen(['touch', '{marker}'])",
                               "subprocess", "subprocess.Popen")
            self.assertBlocked(f"open('{marker}', 'w')", "file_write", "open")
            self.assertBlocked(f"import os\nos.mkdir('{marker}')", "file_write", "os.mkdir")
            self.assertFalse(os.path.exists(marker))
        self.assertBlocked("import socket\nsocket.socket()", "network", "socket.__new__")
        self.assertBlocked("import sys\nsys.modules['ctypes'].CDLL(None)", "ctypes", "ctypes.dlopen")
        self.assertBlocked("import sys\nsys.settrace(None)", "sandbox", "sys.settrace")
        self.assertBlocked("import sys\nsys._current_frames()", "sandbox", "sys._current_frames")
        self.assertBlocked("import gc\ngc.get_objects()", "sandbox", "gc.get_objects")
        self.assertBlocked("import os\nos.environ['IVC_X'] = '1'", "sandbox", "os.putenv")
        self.assertNotIn("IVC_X", os.environ)

    def test_functions_and_reported_exceptions_run_under_the_guard(self):
        self.assertBlocked("import os\ndef f():\n    os.system('true')\nf()", "subprocess",
                           "os.system")
        # Reporting an exception runs the user's __str__ (FastGuard.call).
        err = self.run_fast("""
            import os
            class Probe(Exception):
                def __str__(self):
                    try:
                        os.system("true")
                        return "not refused"
                    except PermissionError as e:
                        return str(e)
            raise Probe()
            """).mediators[0].error
        self.assertIn("category: subprocess", str(err))

    def test_torch_modes_a_mediator_leaves_changed_reach_no_later_mediator(self):
        # torch's grad and autocast modes are thread-local, and FAST threads
        # are pooled: autocast's __enter__ turns CPU autocast on, then fails
        # on cache_enabled=0, so its __exit__ never runs; set_grad_enabled
        # switches at construction. Many rounds, so that a later mediator
        # would land on the failed one's thread if it were kept.
        for _ in range(4):
            for broken in ('with torch.autocast("cpu", cache_enabled=0):\n    pass\n',
                           "torch.set_grad_enabled(False)\n"):
                self.run_fast(broken, free_names=["torch"])
                r = self.run_fast("modes = (torch.is_grad_enabled(),"
                                  " torch.is_autocast_cpu_enabled())\n", saves=["modes"],
                                  free_names=["torch"])
                self.assertIsNone(r.mediators[0].error)
                self.assertEqual(r["modes"], (True, False), broken)

    def test_lazy_imports_and_reads_still_work(self):
        # Importing a module for the first time reads and runs its source:
        # the guard lets a library do that for a mediator.
        self.assertNotIn("colorsys", __import__("sys").modules)
        r = self.run_fast("import colorsys\nh = colorsys.rgb_to_hsv(1.0, 0.0, 0.0)",
                          saves=["h"])
        self.assertIsNone(r.mediators[0].error)
        self.assertEqual(r.saves["h"], (0.0, 1.0, 1.0))

    def test_the_model_and_other_threads_are_not_judged(self):
        test = self

        class Writes(TinyGPT):
            """Writes a file from its forward: the host thread, while a FAST
            mediator waits for an output."""

            def forward(self, ids):
                with tempfile.TemporaryFile("w") as f:
                    f.write("model")
                return super().forward(ids)

        r = self.run_fast("y = model.lm_head.output.save()", model=Writes(), saves=["y"])
        self.assertIsNone(r.mediators[0].error)
        self.assertEqual(r.saves["y"].shape[0], 1)
        # After the mediator, this thread is unguarded as before.
        test.assertEqual(os.system("true"), 0)
        self.assertTrue(torch.equal(torch.ones(1), torch.ones(1)))


if __name__ == "__main__":
    unittest.main()
