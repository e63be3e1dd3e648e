# A class pattern's keyword sub-patterns are attribute lookups: matching
# `object(__class__=cls)` binds cls = subject.__class__ with no dot in the
# source. Structural pattern matching (3.10) broke several pyjail filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Pattern matching") as tracer:
    hidden = model.transformer.h[7].output[0]
    match hidden:
        case object(__class__=cls):
            pass
    logits = model.lm_head.output.save()
