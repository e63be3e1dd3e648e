# Heads split by reshaping a name into itself, dimensions unpacked from a
# shape, pieces unpacked from chunk, and an argmax unravelled by integer
# division: indices (int64, never negative) divided by counts never trap.
# A tensor scaled by a number of any size keeps its shape.
# Expected: no remark; every mediator FAST.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
import math

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Eiffel Tower is in"):
    qkv = model.transformer.h[0].attn.c_attn.output[0]
    q, k, _ = qkv.chunk(3, dim=-1)
    seq, d_model = q.shape
    q = q.view(seq, model.config.n_head, -1).transpose(0, 1)
    k = k.view(seq, model.config.n_head, d_model // model.config.n_head).transpose(0, 1)
    att = (q @ k.transpose(-1, -2)).tril().softmax(-1)
    flat = att.flatten().argmax()
    head = flat // (seq * seq)
    query = (flat // seq) % seq
    key = flat % seq
    edge = torch.stack([head, query, key]).save()

with model.trace("The Eiffel Tower is in"):
    scores = model.transformer.h[0].output[0] / math.sqrt(64)
    t = scores.shape[1]
    mask = torch.triu(torch.ones(t, t), diagonal=1).save()
