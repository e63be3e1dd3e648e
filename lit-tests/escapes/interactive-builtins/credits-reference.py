# credits, like license and copyright, is a site._Printer object, not a
# plain string; referencing it hands the mediator an interactive helper
# whose attributes point at files. Refused when referenced, not only called.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Credits") as tracer:
    banner = credits
    logits = model.lm_head.output.save()
