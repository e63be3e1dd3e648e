# super() with explicit arguments binds a base class's methods to any object,
# skipping the overrides of the object's own class; an nnsight Envoy's
# attribute hooks are bypassed that way, and the bound __init__ still leads
# to its module's globals. RestrictedPython's guard bypasses and pyjail
# write-ups use super(T, obj) to call the "real" method behind a wrapper.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The moon is") as tracer:
    block = model.transformer.h[0]
    raw = super(type(block), block).__getattribute__("_module")
    logits = model.lm_head.output.save()
