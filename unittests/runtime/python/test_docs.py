"""The example in docs/runtime.md runs as written."""

import contextlib
import io
import os
import re

from common import unittest

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docs", "runtime.md")


class DocsExample(unittest.TestCase):
    def test_runtime_md_example(self):
        with open(DOC) as f:
            text = f.read()
        block = re.search(r"## Example.*?```python\n(.*?)```", text, re.S).group(1)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(block, "docs/runtime.md", "exec"), {"__name__": "__docs__"})  # noqa: S102
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], "['fast', 'isolate']")
        self.assertEqual(lines[1], "torch.Size([1, 6, 32])")
        self.assertTrue(lines[2].startswith("torch.Size([6]) worker pid"), lines[2])
        self.assertEqual(lines[3], "('oops.py', 8)")


if __name__ == "__main__":
    unittest.main()
