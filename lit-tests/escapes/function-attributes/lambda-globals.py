# A lambda written inline is a function too: (lambda: 0).__globals__ needs no
# helper from the file at all. Pyjail payloads use it when no named function
# is in scope.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Knock knock") as tracer:
    hidden = model.transformer.h[1].output[0]
    scope = (lambda: 0).__globals__
    logits = model.lm_head.output.save()
