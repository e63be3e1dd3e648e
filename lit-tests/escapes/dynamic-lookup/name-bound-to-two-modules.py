# A name bound to two modules in one scope is both of them wherever it is
# read: `m.save` below may be nnsight.save (FAST) or torch.save, which writes
# files from C++ (no audit event), and `m.asarray` numpy.asarray or
# torch.asarray, whose tensor over an interned bytes object lets a write
# change `bytes([65])` for the whole process. Each module's function is
# judged.
# Known from: a red team of ivc's own typing rules.
# RUN: %ivc check --verify --remarks %s
import nnsight
import numpy as m
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("rebound to torch"):
    nnsight = torch
    nnsight.save(model.transformer.h[0].output[0], "/tmp/x")  # expected-remark {{uses 'torch.save' (io)}} expected-remark {{calls 'nnsight.save', which is not in the op catalog}}

with model.trace("two modules, one name"):
    m = torch
    t = m.asarray(b"A", dtype=torch.uint8)  # expected-remark {{uses 'torch.asarray' (raw-memory)}}
