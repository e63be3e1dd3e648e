# Look-alike: division that cannot trap. A constant divisor other than -1,
# a float, true division, Python ints (`int(...)`, a dimension of a shape
# divided by a model's config value) and printf-style `%` stay FAST.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
HEADS = 12

with model.trace("Division"):
    h = model.transformer.h[0].output[0]
    ids = h.argmax(-1)
    head = ids // HEADS
    pos = ids % 64
    half = h // 2.0
    mid = int(h.shape[-1]) // int(len(ids))
    d_head = h.shape[-1] // model.config.n_head
    q = torch.div(ids, 3, rounding_mode="floor")
    r = ids.fmod(7)
    s = torch.div(h, h)
    t = h.div(h, rounding_mode=None)
    u = 10 // ids
    label = "head %d" % HEADS
    out = (head + pos + half + mid + d_head + q + r + s + t + u).save()
