# Calling the descriptor on `type` directly: type.__subclasses__(object)
# never spells `object.__subclasses__`, which defeats filters that look for
# that exact attribute chain.
# Known from: pyjail CTF write-ups that work around deny lists of attribute
# names.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("A B C D") as tracer:
    resid = model.transformer.h[1].output[0].save()
    classes = type.__subclasses__(object)
