# __base__ (singular) is the single-inheritance twin of __bases__[0]; deny
# lists that name only __bases__ and __mro__ let it through. Here it climbs
# from a tensor's class towards object before listing subclasses.
# Known from: pyjail CTF write-ups that work around deny lists of attribute
# names.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("One two three") as tracer:
    hidden = model.transformer.h[2].output[0]
    top = hidden.__class__.__base__.__base__
    everything = top.__subclasses__()
    logits = model.lm_head.output.save()
