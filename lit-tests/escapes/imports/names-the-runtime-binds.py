# A runtime binds the receiver, the tracer and modules by their own names
# itself: the file's `model = torch` is no constant the plan may carry (the
# definition would make `model.serialization.os` the os module where ivc
# judged a model access), and a name two imports bind is neither a module
# the runtime binds nor one ivc may assume (the caller supplies it).
# Known from: a red team of ivc's classifier (2026-11-27).
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc check --verify --remarks %s
import torch
import math as k
import torch as k

model = torch

# CHECK:      "definitions": [],
# CHECK:      "free_names": [
# CHECK-NEXT:   "k"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in") as tracer:
    env = model.serialization
    q = -2**63 // k  # expected-remark {{uses '-2**63 // k' (integer-division: the minimum by -1 traps)}} expected-remark {{uses 'math' as a value}}
