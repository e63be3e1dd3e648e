# setattr with a dunder name writes what an assignment statement would be
# refused: here a helper's defaults, with no attribute syntax.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def scale(x, factor=1.0):
    return x * factor


with model.trace("Write access") as tracer:
    setattr(scale, "__defaults__", (25.0,))
    model.transformer.h[4].output[0][:] = scale(model.transformer.h[4].output[0])
    logits = model.lm_head.output.save()
