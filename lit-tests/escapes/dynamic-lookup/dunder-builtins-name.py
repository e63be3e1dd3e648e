# __builtins__ is also a plain name in every module namespace: no call, no
# attribute, just a dunder identifier that evaluates to the builtins.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Bare names") as tracer:
    hidden = model.transformer.h[8].output[0]
    b = __builtins__
    logits = model.lm_head.output.save()
