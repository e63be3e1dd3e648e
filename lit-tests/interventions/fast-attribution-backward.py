# Attribution patching, nnsight 0.4 style: read .grad of each layer output,
# then call metric.backward(); the mediator differentiates.
# Expected: FAST, and the mediator differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": false
# GRAD: "differentiate": true
# GRAD-NOT: "differentiate": false
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

grads = []
with model.trace("When John and Mary went out, John gave it to") as tracer:
    for i in range(12):
        grads.append(model.transformer.h[i].output[0].grad.save())
    logits = model.lm_head.output
    metric = logits[0, -1, 1757] - logits[0, -1, 5335]
    metric.backward()
