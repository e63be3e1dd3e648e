# getattr under another name: once the builtin is bound to a local, calls
# through the alias must be checked like calls to getattr itself.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Aliases") as tracer:
    fetch = getattr
    hidden = model.transformer.h[4].output[0]
    cls = fetch(hidden, "__class__")
    logits = model.lm_head.output.save()
