# Catalogued torch and numpy calls that view memory which is not theirs are
# raw-memory (IVC307): `torch.asarray(b"A").fill_(66)` rewrote an interned
# bytes object for the whole server, `torch.asarray(bytearray)` kept a view
# the bytearray freed, `as_strided` of a delivered activation reached the
# other invokes' rows of the shared batch, a sparse tensor's `indices()`
# aliased what `to_dense()` trusts, and `segment_reduce(unsafe=True)` skipped
# its bounds checks.
# Known from: a red team of ivc's classifier (2026-11-25).
# RUN: %ivc check --verify %s
import numpy as np
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("views of buffers"):
    a = torch.asarray(b"A", dtype=torch.uint8)  # expected-remark {{uses 'torch.asarray' (raw-memory)}}
    b = torch.frombuffer(bytearray(8), dtype=torch.uint8)  # expected-remark {{uses 'torch.frombuffer' (raw-memory)}}
    c = np.frombuffer(b"ABCD", dtype=np.uint8)  # expected-remark {{uses 'numpy.frombuffer' (raw-memory)}}

with model.trace("views past a delivered activation"):
    h = model.transformer.h[0].output[0]
    wider = h.as_strided((2,) + tuple(h.shape[1:]), h.stride(), 0)  # expected-remark {{uses 'torch.Tensor.as_strided' (raw-memory)}}
    same = torch.as_strided(h, (1,), (1,))  # expected-remark {{uses 'torch.as_strided' (raw-memory)}}

with model.trace("sparse internals and unchecked reductions"):
    h = model.transformer.h[0].output[0]
    s = h.to_sparse()  # expected-remark {{uses 'torch.Tensor.to_sparse' (raw-memory)}}
    r = torch.segment_reduce(h.flatten(), "sum", lengths=torch.tensor([4]), unsafe=True)  # expected-remark {{uses 'torch.segment_reduce' (raw-memory)}}
