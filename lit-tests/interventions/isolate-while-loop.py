# A data-dependent while loop (power iteration to a tolerance) inside the
# trace: legitimate, but unbounded, so ISOLATE.
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

with model.trace("Find the top direction") as tracer:
    h = model.transformer.h[6].output[0][0]
    gram = h.T @ h
    v, change = gram[0] / gram[0].norm(), 1.0
    while change > 1e-4:
        nxt = gram @ v
        nxt = nxt / nxt.norm()
        change = (nxt - v).norm().item()
        v = nxt
    top = v.save()
