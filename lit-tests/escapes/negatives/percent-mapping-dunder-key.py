# Look-alike: `%(name)s` formatting subscripts the mapping it is given; a
# dunder-looking key is only a dictionary key, not an attribute. A string
# constant that *looks* like a dunder must not be rejected on sight.
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Mapping keys") as tracer:
    caption = "%(__class__)s" % {"__class__": "residual"}
    out = model.transformer.h[4].output[0].save()
