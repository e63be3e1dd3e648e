# Mean ablation: replace attention output with its mean over positions.
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
LAYER = 9

with model.trace("When Mary and John went to the store, John gave a drink to") as tracer:
    attn = model.transformer.h[LAYER].attn.output[0]
    model.transformer.h[LAYER].attn.output[0][:] = attn.mean(dim=1, keepdim=True)
    logits = model.lm_head.output[0, -1].save()
