# Generation, nnsight 0.4: `.next()` per step and `tracer.all()` for every step.
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

with model.generate("Hello, my name is", max_new_tokens=3) as tracer:
    first = model.lm_head.output.save()
    second = model.lm_head.next().output.save()
    third = model.lm_head.next().output.save()
    with tracer.all():
        model.transformer.h[11].output[0][:] = model.transformer.h[11].output[0].clamp(-40, 40)
