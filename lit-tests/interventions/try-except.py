# A try/except inside the trace: exception handling can observe anything
# the body raises, so it is not FAST; nothing here is an escape either.
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

with model.trace("Try it") as tracer:
    try:
        h = model.transformer.h[6].output[0]
        model.transformer.h[6].output[0][:] = h / h.norm(dim=-1, keepdim=True)
    except RuntimeError:
        pass
    logits = model.lm_head.output.save()
