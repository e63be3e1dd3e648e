# type.mro() is an ordinary (non-dunder) method that returns the same list
# as __mro__, so a filter on the attribute __mro__ misses it; the last entry
# is `object`, whose subclasses are the usual target.
# Known from: pyjail CTF write-ups that work around deny lists of attribute
# names.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Once upon a time") as tracer:
    hidden = model.transformer.h[4].output[0]
    root = type(hidden).mro()[-1]
    found = root.__subclasses__()
    logits = model.lm_head.output.save()
