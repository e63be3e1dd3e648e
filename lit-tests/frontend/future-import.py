"""A docstring may come before `from __future__` imports; nothing else may."""
# RUN: not %ivc check %s | FileCheck %s
from __future__ import annotations
import torch
from __future__ import division

with model.trace("x") as tracer:
    from __future__ import generator_stop
# CHECK-NOT: future-import.py:3:
# CHECK: future-import.py:5:1: error: from __future__ imports must occur at the beginning of the file [IVC001]
# CHECK: future-import.py:8:5: error: from __future__ imports must occur at the beginning of the file [IVC001]
