# getattr with a name built at run time: no attribute in the source text is a
# dunder, so text filters pass it, yet the lookup is __class__. Any getattr
# whose name is not a constant must be treated as possibly reaching a dunder.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Build a name") as tracer:
    hidden = model.transformer.h[3].output[0]
    name = "_" * 2 + "class" + "_" * 2
    cls = getattr(hidden, name)
    logits = model.lm_head.output.save()
