# Caching: tracer.cache() for some blocks, plus one explicit .save().
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

with model.trace("The capital of Italy is") as tracer:
    cache = tracer.cache(modules=[model.transformer.h[i] for i in [2, 6, 10]])
    final = model.lm_head.output[0, -1].save()
