# Two traces in one file: clean activations first (no backward), then the
# corrupted run with backward. differentiate is per mediator.
# Expected: both mediators FAST; only the second differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate"
# GRAD: "differentiate": true
# GRAD-NOT: "differentiate"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Mary gave it to") as tracer:
    clean = model.transformer.h[4].output[0].save()

with model.trace("John gave it to") as tracer:
    corrupt = model.transformer.h[4].output[0]
    grad = corrupt.grad.save()
    model.lm_head.output[0, -1].max().backward()
