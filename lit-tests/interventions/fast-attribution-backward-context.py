# Gradients, nnsight 0.5 style: `with metric.backward():` and .grad read in
# reverse order inside it.
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

with model.trace("The capital of France is") as tracer:
    hidden = model.transformer.h[6].output[0]
    logits = model.lm_head.output
    metric = logits[0, -1].log_softmax(dim=-1)[6342]
    with metric.backward():
        logits_grad = logits.grad.save()
        hidden_grad = hidden.grad.save()
