# The same trick on a class, with no lambda and no parentheses in the
# decorator line: "code".format(cls) returns "code", which @exec then runs.
# Known from: pyjail challenges that forbid parentheses; PEP 614 allows any
# expression after @.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Class decorators") as tracer:
    hidden = model.transformer.h[9].output[0]

    @exec
    @"steps = 3".format
    class Settings:
        pass

    logits = model.lm_head.output.save()
