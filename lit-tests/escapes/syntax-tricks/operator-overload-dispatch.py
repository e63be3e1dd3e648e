# Operators dispatch to dunder methods: `s * hidden` calls Scale.__mul__,
# defined in this file, which evaluates a string. The mediator has no call,
# no dunder and no builtin in its text; the reach is implicit.
# Known from: pyjail write-ups that run code through implicit dunder calls
# instead of explicit ones.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Scale:
    def __init__(self, expr):
        self.expr = expr

    def __mul__(self, other):
        return other * eval(self.expr)


with model.trace("Operators") as tracer:
    s = Scale("0.5")
    model.transformer.h[3].output[0][:] = s * model.transformer.h[3].output[0]
    logits = model.lm_head.output.save()
