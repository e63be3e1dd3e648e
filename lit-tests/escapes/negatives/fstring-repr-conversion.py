# Look-alike: an f-string with !r and a format spec. The conversion calls
# repr() on the value, which is no more than printing it; the expressions
# in braces (.shape, an index) are ordinary, checked like any other code.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Labels") as tracer:
    for i in [0, 5, 11]:
        h = model.transformer.h[i].output[0]
        label = f"layer {i:02d}: {h.shape!r}"
    logits = model.lm_head.output.save()
