# Look-alike: "{0}".format(h.shape). A positional field with no attribute or
# index step; .shape is read in the argument expression, in plain sight.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Shapes") as tracer:
    h = model.transformer.h[2].output[0]
    label = "{0}".format(h.shape)
    out = h.save()
