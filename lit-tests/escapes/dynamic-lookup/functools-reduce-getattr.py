# functools.reduce(getattr, names, obj) walks an attribute chain given as a
# list of strings: every step is a getattr the source never spells.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import functools

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Reduce") as tracer:
    hidden = model.transformer.h[9].output[0]
    base = functools.reduce(getattr, ["__class__", "__base__"], hidden)
    logits = model.lm_head.output.save()
