# Look-alike: format specs, including a nested width field ("{:>{width}}")
# and a float precision. Specs are not field names and do no lookups.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Specs") as tracer:
    name = "resid"
    padded = "{:>{width}}".format(name, width=8)
    rounded = "{:.3f}".format(0.5)
    out = model.transformer.h[1].output[0].save()
