# Generation, nnsight 0.5: `for step in tracer.iter[:]:` with a per-step
# condition; the unbounded loop is the whole body, since code after it
# never runs.
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

step_tokens = []
with model.generate("The best thing about AI is", max_new_tokens=6) as tracer:
    for step in tracer.iter[:]:
        if step == 2:
            model.transformer.h[3].output[0][:] *= 0.5
        step_tokens.append(model.lm_head.output[0, -1].argmax(dim=-1).save())
