"""The compiled module as the process sees it (runtime/CMakeLists.txt).

ivc._core links ivc's static libraries, and on some toolchains libstdc++
statically too. Whatever it exports can bind the symbol references of
libraries loaded beside it (torch's shared libstdc++ bound std::locale to
the module's copy and freed memory it had not allocated). So it exports its
init function and no definitions of the code it links.
"""

import os
import shutil
import subprocess
import sys
import textwrap
import unittest

from ivc import _core


class ModuleExports(unittest.TestCase):
    def test_only_the_init_function_of_what_it_defines(self):
        nm = shutil.which("nm")
        if nm is None:
            self.skipTest("nm (binutils) is not installed")
        out = subprocess.run([nm, "-D", "--defined-only", "-C", _core.__file__],
                             capture_output=True, text=True, check=True).stdout
        names = [line.split(" ", 2)[2] for line in out.splitlines() if line.count(" ") >= 2]
        self.assertIn("PyInit__core", names)
        linked = [n for n in names if n.startswith(("ivc::", "llvm::", "std::locale", "ts_"))]
        self.assertEqual(linked, [], "definitions of linked code are exported")


# Daemon threads wait in ivc._core (a server's request threads, FAST
# mediators) when the program exits, and an atexit hook wakes them: CPython
# then ends each one that tries to retake the GIL after finalization began,
# by unwinding its stack. Many threads and a short switch interval widen that
# race: about one run in sixty aborted before retakeGil stopped the unwind.
EXIT_WHILE_WAITING = textwrap.dedent("""
    import atexit, sys, threading, time
    from ivc import _core
    THREADS = 32
    host, mediator = _core.memory_channel_pair()
    waiting = threading.Barrier(THREADS + 1)
    def wait():
        waiting.wait()
        mediator.recv(timeout_ms=-1)
    for _ in range(THREADS):
        threading.Thread(target=wait, daemon=True).start()
    waiting.wait()
    time.sleep(0.05)
    sys.setswitchinterval(1e-6)
    atexit.register(host.close)
""")


# A FAST mediator abandoned inside a long torch call when the program exits:
# were the interpreter finalizing when the call returns, CPython would end
# the thread with an unwind that torch's noexcept frames turn into
# std::terminate. The runtime waits for such calls at exit instead.
EXIT_DURING_A_CALL = textwrap.dedent('''
    import torch, ivc
    from plans import mediator, plan
    from tiny_gpt import TinyGPT, tokens
    rt = ivc.Runtime(fast_timeout_s=0.2)
    p = plan(mediator("h = model.transformer.h[0].output[0]\\nx = torch.ones(2**26).sort()\\n",
                      free_names=["torch"]))
    r = rt.run(p, TinyGPT(), [tokens()], {"torch": torch}, raise_errors=False)
    assert isinstance(r.mediators[0].error, ivc.MediatorTimeout), r.mediators[0].error
''')


class InterpreterExit(unittest.TestCase):
    def test_threads_waiting_in_the_module_do_not_abort_the_exit(self):
        for _ in range(12):
            done = subprocess.run([sys.executable, "-c", EXIT_WHILE_WAITING], env=os.environ,
                                  capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(done.stderr, "")

    def test_a_mediator_abandoned_in_a_call_does_not_abort_the_exit(self):
        here = os.path.dirname(os.path.abspath(__file__))
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [here, os.environ.get("PYTHONPATH", "")]))
        for _ in range(4):
            done = subprocess.run([sys.executable, "-c", EXIT_DURING_A_CALL], env=env,
                                  capture_output=True, text=True, timeout=120)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertNotIn("terminate", done.stderr)


if __name__ == "__main__":
    unittest.main()
