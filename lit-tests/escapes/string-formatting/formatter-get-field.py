# string.Formatter().get_field resolves one field expression, attribute and
# index steps included, and returns the object itself rather than its text.
# It is getattr with extra steps.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import string

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Formatter internals") as tracer:
    hidden = model.transformer.h[6].output[0]
    obj, _ = string.Formatter().get_field("0.__class__", [hidden], {})
    logits = model.lm_head.output.save()
