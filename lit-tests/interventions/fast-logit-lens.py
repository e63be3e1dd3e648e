# Logit lens: every block's residual through ln_f and the unembedding.
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

probs = []
with model.trace("The Eiffel Tower is in the city of") as tracer:
    for layer in model.transformer.h:
        logits = model.lm_head(model.transformer.ln_f(layer.output[0]))
        probs.append(logits[0, -1].softmax(dim=-1).save())
