# vars(obj) returns the instance __dict__: private attributes of nnsight's
# envoys and tracer (the wrapped torch module, the interleaver) by string key,
# with no attribute syntax at all.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Instance dicts") as tracer:
    state = vars(model.transformer)
    logits = model.lm_head.output.save()
