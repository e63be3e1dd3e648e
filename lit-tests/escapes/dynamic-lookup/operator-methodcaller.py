# operator.methodcaller("__subclasses__") calls a dunder method by name on
# whatever object it is given; the call happens inside the operator module.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import operator

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Method callers") as tracer:
    hidden = model.transformer.h[3].output[0]
    classes = operator.methodcaller("__subclasses__")(object)
    logits = model.lm_head.output.save()
