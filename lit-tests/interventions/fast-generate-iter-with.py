# Generation: `with tracer.iter[0:3]:` applies the ablation to the first three steps.
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

with model.generate("Once upon a time", max_new_tokens=5) as tracer:
    with tracer.iter[0:3]:
        model.transformer.h[0].output[0][:, -1, :] = 0
        first_logits = model.lm_head.output[0, -1].save()
    tokens = model.generator.output.save()
