# Comments may come before the docstring, and a `from __future__` import
# after both is at the beginning of the file, as CPython has it.
# RUN: %ivc check %s | FileCheck %s
# RUN: %ivc dump-ir %s > /dev/null
"""A module docstring."""
from __future__ import annotations

with model.trace("x") as tracer:
    out = model.lm_head.output.save()
# CHECK-NOT: error
# CHECK: checked 1 file: 0 errors
