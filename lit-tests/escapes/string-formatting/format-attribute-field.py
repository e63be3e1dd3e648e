# str.format fields may contain attribute lookups: "{0.__class__}" performs
# getattr(arg, "__class__") inside the formatter, where no source check sees
# it. Armin Ronacher's 2016 post on str.format and many SSTI/pyjail write-ups
# build on this.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Formatting") as tracer:
    hidden = model.transformer.h[3].output[0]
    label = "{0.__class__}".format(hidden)
    logits = model.lm_head.output.save()
