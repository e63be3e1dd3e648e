# getattr passed as a value (to map, sorted's key, a helper) is called by
# code the analyzer does not see; the call site never looks like getattr(...).
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Higher order") as tracer:
    hidden = model.transformer.h[6].output[0]
    found = list(map(getattr, [hidden], ["__class__"]))
    logits = model.lm_head.output.save()
