# __code__ is writable: swapping a trusted helper's code object for another
# (or one rebuilt with code.replace()) changes what the helper does while its
# name, and anything that vetted it, stays the same. Old RestrictedPython and
# pysandbox discussions list code objects as a way around source checks.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def scale(x):
    return x * 2.0


def other(x):
    return x


with model.trace("Twinkle twinkle little") as tracer:
    scale.__code__ = other.__code__
    model.transformer.h[3].output[0][:] = scale(model.transformer.h[3].output[0])
    logits = model.lm_head.output.save()
