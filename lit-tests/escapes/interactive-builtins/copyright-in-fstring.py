# copyright inside an f-string is still a reference to the site printer
# object; formatting it calls its methods. Refused like the other site
# helpers.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Copyright") as tracer:
    hidden = model.transformer.h[2].output[0]
    note = f"{copyright}"
    logits = model.lm_head.output.save()
