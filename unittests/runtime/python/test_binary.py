"""The compiled module as the process sees it (runtime/CMakeLists.txt).

ivc._core links ivc's static libraries, and on some toolchains libstdc++
statically too. Whatever it exports can bind the symbol references of
libraries loaded beside it (torch's shared libstdc++ bound std::locale to
the module's copy and freed memory it had not allocated). So it exports its
init function and no definitions of the code it links.
"""

import shutil
import subprocess
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


if __name__ == "__main__":
    unittest.main()
