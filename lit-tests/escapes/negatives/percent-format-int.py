# Look-alike: printf-style `%` formatting. It only converts values (%d,
# %s, %r); it has no attribute or index syntax, so it cannot reach anything.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
LAYER = 6

with model.trace("Percent") as tracer:
    label = "layer %d" % LAYER
    hidden = model.transformer.h[LAYER].output[0].save()
