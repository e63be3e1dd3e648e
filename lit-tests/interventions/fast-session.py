# A session with two traces: a value computed in the first is used by the
# second. The session body and each trace are mediators, all FAST.
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

with model.session() as session:
    with model.trace("I love this") as tracer:
        pos = model.transformer.h[6].output[0][:, -1, :].mean(dim=0)
    with model.trace("I hate this") as tracer:
        neg = model.transformer.h[6].output[0][:, -1, :].mean(dim=0)
    direction = (pos - neg) / (pos - neg).norm()
    with model.trace("The food was") as tracer:
        model.transformer.h[6].output[0][:, -1, :] += 8.0 * direction
        steered = model.lm_head.output[0, -1].save()
