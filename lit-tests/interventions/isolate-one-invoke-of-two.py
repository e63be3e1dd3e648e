# Two invokes in one trace; only the second has a try block with a finally
# clause (it would run while a stop unwinds, outside the meters).
# Expected: first invoke FAST, second invoke ISOLATE (tiers are per mediator).
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{fast|reject}}"
# CHECK: "tier": "isolate"
# CHECK-NOT: "tier": "{{fast|isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        paris = model.lm_head.output[0, -1].save()
    with tracer.invoke("The Colosseum is in"):
        try:
            rome = model.lm_head.output[0, -1].save()
        finally:
            pass
