# Look-alike: getattr with a constant, non-underscore name. It is exactly
# model.config.hidden_size; the rule is that such a getattr is never
# REJECT (FAST if the analyzer rewrites it to the attribute, ISOLATE if not).
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Config") as tracer:
    width = getattr(model.config, "hidden_size")
    out = model.transformer.h[0].output[0][..., :width].save()
