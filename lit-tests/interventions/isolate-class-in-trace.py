# A class statement inside the trace: class creation runs a metaclass and
# arbitrary body code, which ivc does not prove pure. ISOLATE.
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

with model.trace("Local classes") as tracer:
    class Running:
        total = 0.0

    for i in range(4):
        Running.total += model.transformer.h[i].output[0].norm()
    total = Running.total.save()
