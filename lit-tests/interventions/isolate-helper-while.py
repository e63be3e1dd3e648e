# The while loop is in a same-file helper the trace calls; the tier follows
# the call (the reason's `via` names the helper).
# Expected: ISOLATE, no differentiation.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
# CHECK-NOT: "tier": "{{fast|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def renormalise(x, target=1.0):
    while x.norm() > target:
        x = x * 0.5
    return x


with model.trace("Helpers decide") as tracer:
    h = model.transformer.h[4].output[0][0, -1]
    model.transformer.h[4].output[0][0, -1] = renormalise(h, 50.0)
    logits = model.lm_head.output.save()
