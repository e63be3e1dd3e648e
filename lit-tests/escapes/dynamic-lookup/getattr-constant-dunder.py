# The plainest form: getattr with a constant dunder name. Nothing is hidden,
# but it is an attribute access the parser does not see as one.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Plain getattr") as tracer:
    hidden = model.transformer.h[1].output[0]
    cls = getattr(hidden, "__class__")
    logits = model.lm_head.output.save()
