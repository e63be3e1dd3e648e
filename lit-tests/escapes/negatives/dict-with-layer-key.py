# Look-alike: a dict literal with string keys, read by subscript. Keys like
# "layer" are data, not names in a namespace.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Records") as tracer:
    record = {"layer": 5, "position": -1}
    hidden = model.transformer.h[record["layer"]].output[0][:, record["position"]]
    out = hidden.save()
