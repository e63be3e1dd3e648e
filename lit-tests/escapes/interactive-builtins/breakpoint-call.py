# breakpoint() drops into pdb (or whatever PYTHONBREAKPOINT names) on the
# server, an interactive prompt that evaluates arbitrary Python. pyjail
# write-ups list it as a one-call escape when builtins are left in place.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Debugging") as tracer:
    hidden = model.transformer.h[3].output[0]
    breakpoint()
    logits = model.lm_head.output.save()
