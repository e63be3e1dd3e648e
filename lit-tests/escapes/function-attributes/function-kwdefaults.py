# __kwdefaults__ is the keyword-only twin of __defaults__ and is just as
# writable; deny lists copied from older pyjail notes often forget it.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def project(hidden, *, direction=None, strength=1.0):
    return hidden if direction is None else hidden - strength * direction


with model.trace("The meaning of life is") as tracer:
    project.__kwdefaults__["strength"] = 50.0
    hidden = project(model.transformer.h[8].output[0])
    logits = model.lm_head.output.save()
