# vars() with no argument is locals(): the mediator's namespace as a dict,
# including whatever the server bound into it. Where the body runs at module
# level (nnsight 0.4) that is globals(), with __builtins__ one key away.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Namespaces") as tracer:
    hidden = model.transformer.h[0].output[0]
    namespace = vars()
    logits = model.lm_head.output.save()
