# Named Unicode escapes: "\N{LOW LINE}" is "_". Same idea as hex escapes,
# different decoder path, so it gets its own case.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Named escapes") as tracer:
    hidden = model.transformer.h[5].output[0]
    mro = getattr(hidden, "\N{LOW LINE}\N{LOW LINE}mro\N{LOW LINE}\N{LOW LINE}")
    logits = model.lm_head.output.save()
