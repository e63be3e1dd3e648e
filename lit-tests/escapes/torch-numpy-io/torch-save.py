# torch.save writes a pickle to the server's file system. Not an escape by
# itself, but file I/O is never FAST: at least ISOLATE, where the worker's
# seccomp and rlimits decide what a write may touch.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Save to disk") as tracer:
    hidden = model.transformer.h[6].output[0]
    torch.save(hidden, "/tmp/resid.pt")
    logits = model.lm_head.output.save()
