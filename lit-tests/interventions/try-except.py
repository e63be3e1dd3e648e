# A try/except of a builtin error inside the trace: what ends a mediator is
# no Exception, and the handler keeps nothing of the error.
# Expected: FAST, no differentiation.
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

with model.trace("Try it") as tracer:
    try:
        h = model.transformer.h[6].output[0]
        model.transformer.h[6].output[0][:] = h / h.norm(dim=-1, keepdim=True)
    except RuntimeError:
        pass
    logits = model.lm_head.output.save()
