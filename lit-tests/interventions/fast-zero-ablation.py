# Zero ablation: assign 0 to the MLP output of several blocks.
# Expected: every mediator FAST, none differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Colosseum is in the city of") as tracer:
    for i in [0, 1, 2]:
        model.transformer.h[i].mlp.output[:] = 0
    probs = model.lm_head.output[0, -1].softmax(dim=-1).save()
