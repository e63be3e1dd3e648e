# Assigning __class__ re-types a live object: a proxy or tracer can be turned
# into a different class whose methods skip its checks. RestrictedPython
# guards attribute writes for this reason; pyjail write-ups use it to make
# an object look like a trusted type.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Plain:
    pass


with model.trace("Red green blue") as tracer:
    hidden = model.transformer.h[7].output[0]
    tracer.__class__ = Plain
    logits = model.lm_head.output.save()
