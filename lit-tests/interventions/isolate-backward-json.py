# Gradients plus json formatting: differentiate and ISOLATE are independent.
# Expected: ISOLATE, and the mediator differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
# CHECK-NOT: "tier": "{{fast|reject}}"
# GRAD-NOT: "differentiate": false
# GRAD: "differentiate": true
# GRAD-NOT: "differentiate": false
import json

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Gradients and JSON") as tracer:
    hidden = model.transformer.h[5].output[0]
    grad = hidden.grad.save()
    model.lm_head.output[0, -1].max().backward()
    summary = json.dumps({"layer": 5, "loss": "max-logit"}).save()
