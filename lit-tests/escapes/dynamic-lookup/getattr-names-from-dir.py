# dir() lists every attribute name, dunders included; feeding those names to
# getattr fetches all of them without a single dunder in the source.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Everything") as tracer:
    hidden = model.transformer.h[10].output[0]
    attrs = [getattr(hidden, n) for n in dir(hidden) if n.startswith("_")]
    logits = model.lm_head.output.save()
