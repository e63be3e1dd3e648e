# Integrated gradients with torch.autograd.grad: the functional form of
# metric.backward(). Expected: FAST, and the mediator differentiates;
# torch.autograd.backward likewise.
# RUN: %ivc plan %s | FileCheck %s
# CHECK: "differentiate": true
# CHECK: "tier": "fast"
# CHECK: "differentiate": true
# CHECK: "tier": "fast"
# CHECK-NOT: "tier"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[5].output[0]
    metric = model.lm_head.output[0, -1].log_softmax(-1)[6342]
    (g,) = torch.autograd.grad(metric, [h])
    attribution = (g * h).sum(-1).save()

with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[5].output[0]
    torch.autograd.backward(model.lm_head.output[0, -1, 6342])
    grad = h.grad.save()
