# torch divides integer tensors with the machine's division, and the most
# negative int32 or int64 divided by -1 traps: SIGFPE kills the server
# (torch 1.13 on CPU: `torch.tensor([-2**63]) // -1`). A division a tensor
# may take part in is IVC307 unless ivc shows the divisor is not -1 or the
# dividend is a number no tensor holds at its minimum. torch wraps Python
# ints into an int32 tensor's type, so 2**32 - 1 is -1 there and 2**31 the
# minimum, and a length may be either.
# RUN: %ivc check --verify %s
import functools
import operator

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("divisors that may be -1"):
    h = model.transformer.h[0].output[0]
    ids = h.argmax(-1)
    a = ids // -1  # expected-remark {{uses 'ids // -1' (integer-division: the minimum by -1 traps)}}
    b = ids % ids  # expected-remark {{uses 'ids % ids' (integer-division: the minimum by -1 traps)}}
    ids //= ids  # expected-remark {{uses 'ids //= ids' (integer-division: the minimum by -1 traps)}}
    c = -2**63 // ids  # expected-remark {{uses '-2**63 // ids' (integer-division: the minimum by -1 traps)}}
    i32 = ids.int()
    w1 = i32 // (2**32 - 1)  # expected-remark {{uses 'i32 // (2**32 - 1)' (integer-division: the minimum by -1 traps)}}
    w2 = 2**31 // i32  # expected-remark {{uses '2**31 // i32' (integer-division: the minimum by -1 traps)}}
    w3 = i32 % len(range(2**32 - 1))  # expected-remark {{uses 'i32 % len(range(2**32 - 1))' (integer-division: the minimum by -1 traps)}}

with model.trace("tensors held in attributes") as tracer:
    k = batch.input_ids // -1  # expected-remark {{uses 'batch.input_ids // -1' (integer-division: the minimum by -1 traps)}}
    m = tracer.result.ids % -1  # expected-remark {{uses 'tracer.result.ids % -1' (integer-division: the minimum by -1 traps)}}

with model.trace("torch's division functions and methods"):
    ids = model.transformer.h[0].output[0].argmax(-1)
    d = torch.fmod(ids, ids)  # expected-remark {{uses 'torch.fmod(ids, ids)' (integer-division: the minimum by -1 traps)}}
    e = torch.remainder(ids, other=-1)  # expected-remark {{uses 'torch.remainder(ids, other=-1)' (integer-division: the minimum by -1 traps)}}
    f = ids.floor_divide_(ids)  # expected-remark {{uses 'ids.floor_divide_(ids)' (integer-division: the minimum by -1 traps)}}
    g = ids.div(ids, rounding_mode="trunc")  # expected-remark {{uses 'ids.div(ids, rounding_mode="trunc")' (integer-division: the minimum by -1 traps)}}
    g2 = torch.div(ids, -1, **{"rounding_mode": "floor"})  # expected-remark {{uses 'torch.div(ids, -...ding_mode": "floor"})' (integer-division: the minimum by -1 traps)}}
    i = torch.Tensor.fmod(ids, -1)  # expected-remark {{uses 'torch.Tensor.fmod(ids, -1)' (integer-division: the minimum by -1 traps)}}
    j = operator.mod(ids, ids)  # expected-remark {{uses 'operator.mod(ids, ids)' (integer-division: the minimum by -1 traps)}}

with model.trace("division functions passed on"):
    ids = model.transformer.h[0].output[0].argmax(-1)
    k = list(map(torch.remainder, [ids], [ids]))  # expected-remark {{uses 'torch.remainder as a value' (integer-division: the minimum by -1 traps)}}
    l = functools.reduce(operator.floordiv, [ids, ids])  # expected-remark {{uses 'operator.floordiv as a value' (integer-division: the minimum by -1 traps)}}
    m = functools.partial(torch.div, rounding_mode="floor")  # expected-remark {{uses 'torch.div as a value' (integer-division: the minimum by -1 traps)}}

# Unravelling an argmax: int64 indices (in-place updates keep the dtype)
# divided by a count, which is never negative, cannot be the minimum by -1.
with model.trace("indices divided by counts"):
    pat = model.transformer.h[5].attn.attn_dropout.input[0, 0]
    idx = pat.flatten().argmax()
    row, col = idx // pat.shape[-1], idx % pat.shape[-1]
    _, top = pat.topk(3)
    r = top // pat.size(-1) + top.flatten() % pat.numel()
    w = pat.max(dim=-1).indices[0] // len(range(2**32 - 1))
    s = torch.div(pat.argmax(-1).long(), pat.shape[0], rounding_mode="floor")

with model.trace("shapes kept in names, and Python ints"):
    pat = model.transformer.h[5].attn.attn_dropout.input[0]
    heads, queries, keys = pat.shape
    shape = pat.shape
    best = pat.reshape(heads, -1).argmax(-1)
    q, k = best // keys, best % shape[-1]
    flat = pat.argmax().item()
    pos = flat // pat.size(-1) + flat % pat.dim()

with model.trace("a name each trace binds to indices"):
    pat = model.transformer.h[6].attn.attn_dropout.input[0, 0]
    idx = pat.flatten().argmin()
    row = idx // pat.shape[-1]

with model.trace("counts that leave the division unsafe"):
    pat = model.transformer.h[5].attn.attn_dropout.input[0, 0]
    i32 = pat.argmax().int()
    a = i32 // pat.shape[-1]  # expected-remark {{uses 'i32 // pat.shape[-1]' (integer-division: the minimum by -1 traps)}}
    _, m = torch.max(pat, pat)
    b = m // pat.shape[-1]  # expected-remark {{uses 'm // pat.shape[-1]' (integer-division: the minimum by -1 traps)}}
    i = pat.argmax()
    c = i // model.config.n_head  # expected-remark {{uses 'i // model.config.n_head' (integer-division: the minimum by -1 traps)}}
    j = pat.argmax()
    j = j.int()
    d = j % pat.numel()  # expected-remark {{uses 'j % pat.numel()' (integer-division: the minimum by -1 traps)}}
    count = len(pat)
    count = -1
    e = i // count  # expected-remark {{uses 'i // count' (integer-division: the minimum by -1 traps)}}
    f = i // torch.Size([-1]).numel()  # expected-remark {{uses 'i // torch.Size([-1]).numel()' (integer-division: the minimum by -1 traps)}}
