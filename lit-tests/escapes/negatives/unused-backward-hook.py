# Look-alike: a helper named backward_hook, which even calls .backward(),
# is defined in the file but never called from the trace. Unreached code
# does not make the mediator differentiate, and the name means nothing.
# Expected: FAST
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


def backward_hook(loss):
    loss.backward()
    return loss


with model.trace("Forward only") as tracer:
    logits = model.lm_head.output.save()
