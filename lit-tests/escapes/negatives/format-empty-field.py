# Look-alike: str.format with an automatic field and a constant argument,
# "{}".format(3). No field name, no attribute step.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Braces") as tracer:
    tag = "{}".format(3)
    hidden = model.transformer.h[3].output[0].save()
