# torch.load with default arguments (weights_only=True since torch 2.6)
# still parses a pickle from disk with a restricted unpickler; reading server
# files is I/O, so at least ISOLATE.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Load from disk") as tracer:
    direction = torch.load("direction.pt")
    model.transformer.h[6].output[0][:] += direction
    logits = model.lm_head.output.save()
