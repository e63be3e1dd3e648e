# A for-target may be any assignable expression, attributes included:
# `[0 for cfg.__class__ in [Other]]` assigns cfg.__class__ without an `=`.
# The same holds for `for` statements and `with ... as x.attr`.
# Known from: pyjail CTF write-ups that hide a binding or an evaluation from a
# statement-level check.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

class Other:
    pass


class Config:
    layer = 3


cfg = Config()

with model.trace("Comprehension targets") as tracer:
    hidden = model.transformer.h[cfg.layer].output[0]
    _ = [0 for cfg.__class__ in [Other]]
    logits = model.lm_head.output.save()
