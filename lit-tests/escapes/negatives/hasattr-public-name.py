# Look-alike: hasattr with a constant, public name; the same rule as getattr.
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Feature test") as tracer:
    has_layers = hasattr(model.config, "n_layer")
    out = model.transformer.h[0].output[0].save()
