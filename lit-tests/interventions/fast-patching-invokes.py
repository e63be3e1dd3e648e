# Activation patching across two invokes (nnsight 0.4 style): clean, then corrupted.
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

with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in the city of"):
        clean_resid = model.transformer.h[8].output[0][:, -1, :].save()
    with tracer.invoke("The Colosseum is in the city of"):
        model.transformer.h[8].output[0][:, -1, :] = clean_resid
        patched_logits = model.lm_head.output[0, -1].save()
