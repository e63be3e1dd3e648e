# tracer.log reports a value; tracer.stop() ends the forward pass early, and
# so does nnsight's stop() on a module's output.
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

with model.trace("Stop early") as tracer:
    hidden = model.transformer.h[3].output[0].save()
    tracer.log(hidden.norm())
    tracer.stop()

with model.trace("Stop early") as tracer:
    hidden = model.transformer.h[3].output[0].save()
    model.transformer.h[3].output.stop()
