# Catalogued kernels that trust their arguments, and arguments that make a
# safe function unsafe, are IVC307: each crashed the server or read memory
# it does not own from a FAST mediator (torch 1.13 on CPU):
# native_channel_shuffle(h, 0) divides by zero, ldl_solve reads and writes
# past its operand at an unchecked pivot, searchsorted(sorter=...) indexes
# unchecked, a sparse gradient's indices alias what to_dense() trusts, and
# a numpy ufunc with where= and no out= returns memory it never wrote.
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import numpy as np
import torch
import torch.nn.functional as F
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("kernels that trust their arguments"):
    h = model.lm_head.output
    shuffled = torch.native_channel_shuffle(h, 0)  # expected-remark {{uses 'torch.native_channel_shuffle' (raw-memory)}}
    x = torch.linalg.ldl_solve(torch.eye(3), torch.tensor([1 << 30, 1, 1]), torch.ones(3, 1))  # expected-remark {{uses 'torch.linalg.ldl_solve' (raw-memory)}}

with model.trace("arguments that make a function unsafe"):
    s = torch.arange(1024.0)
    found = torch.searchsorted(s, s, sorter=torch.full((1024,), 1 << 40))  # expected-remark {{uses 'torch.searchsorted(sorter=...)' (raw-memory)}}
    again = torch.zeros(10, 4).gather(0, torch.zeros(1, 4).long(), sparse_grad=True)  # expected-remark {{uses 'torch.Tensor.gather(sparse_grad=...)' (raw-memory)}}
    w = torch.zeros(10, 4)
    e = F.embedding(torch.tensor([1]), w, sparse=True)  # expected-remark {{uses 'torch.nn.functional.embedding(sparse=...)' (raw-memory)}}
    g = torch.gather(w, 0, torch.zeros(1, 4).long(), sparse_grad=True)  # expected-remark {{uses 'torch.gather(sparse_grad=...)' (raw-memory)}}
    z = torch.zeros(4, 4, layout=torch.sparse_csr)  # expected-remark {{uses 'torch.zeros(layout=...)' (raw-memory)}}
    u = np.add(np.float32(0), np.float32(0), where=np.zeros(64, bool))  # expected-remark {{uses 'numpy.add(where=...) without out=' (uninitialized-memory)}}

with model.trace("their safe forms stay FAST"):
    h = model.lm_head.output
    s = torch.arange(1024.0)
    found = torch.searchsorted(s, s) + torch.searchsorted(s, s, sorter=None)
    w = torch.zeros(10, 4)
    e = F.embedding(torch.tensor([1]), w, sparse=False) + torch.zeros(1, 4, layout=torch.strided)
    out = np.zeros(64)
    u = np.add(out, 1.0, out=out, where=out > 0)
    y = h.save()
