# The string is split so that no literal contains the forbidden word:
# getattr(x, "__cl" + "ass__"). A constant folder sees "__class__"; a filter
# grepping literals does not.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Split strings") as tracer:
    hidden = model.transformer.h[2].output[0]
    cls = getattr(hidden, "__cl" + "ass__")
    logits = model.lm_head.output.save()
