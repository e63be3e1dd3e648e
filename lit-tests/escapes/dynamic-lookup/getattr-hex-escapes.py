# String escapes hide the underscores: "\x5f" is "_", so the literal below is
# "__class__" once decoded. The check must run on the decoded value of the
# literal, not on its source text.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Escaped") as tracer:
    hidden = model.transformer.h[5].output[0]
    cls = getattr(hidden, "\x5f\x5fclass\x5f\x5f")
    logits = model.lm_head.output.save()
