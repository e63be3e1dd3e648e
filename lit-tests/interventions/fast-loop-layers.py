# Loops over model.transformer.h with enumerate, indexing by the loop variable.
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

norms = {}
with model.trace("Residual norms grow with depth") as tracer:
    for i, block in enumerate(model.transformer.h):
        norms[i] = block.output[0].norm(dim=-1).mean().save()
        if i % 4 == 0:
            model.transformer.h[i].attn.output[0][:] *= 0.9
    logits = model.lm_head.output.save()
