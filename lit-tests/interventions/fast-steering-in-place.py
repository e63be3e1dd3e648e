# Steering: an in-place add of a direction at the last position, h[:, -1] += d.
# Expected: every mediator FAST, none differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
direction = torch.randn(768)

with model.trace("The weather today is") as tracer:
    h = model.transformer.h[6].output[0]
    h[:, -1] += 4.0 * direction
    logits = model.lm_head.output.save()
