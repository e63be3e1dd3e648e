# Comprehensions over layers and f-string labels inside the trace.
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

with model.trace("Comprehensions are fine") as tracer:
    resid = [model.transformer.h[i].output[0][0, -1] for i in range(0, 12, 3)]
    labelled = {f"layer_{i * 3:02d}": r.norm().save() for i, r in enumerate(resid)}
    mlp_means = [block.mlp.output.mean() for block in model.transformer.h]
    total = sum(mlp_means).save()
