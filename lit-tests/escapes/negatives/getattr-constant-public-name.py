# Look-alike: hasattr with a constant, non-underscore name: a lookup of
# model.config.hidden_size, never REJECT. (getattr itself is a prohibited
# builtin under the default policy.)
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Config") as tracer:
    width = model.config.hidden_size if hasattr(model.config, "hidden_size") else 768
    out = model.transformer.h[0].output[0][..., :width].save()
