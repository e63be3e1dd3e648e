# Mathematical script letters normalise to ASCII too: the attribute below is
# __class__ after NFKC, written with U+1D4B8 and friends.
# Known from: pyjail challenges that filter ASCII keywords; PEP 3131 specifies
# the NFKC folding.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Script letters") as tracer:
    hidden = model.transformer.h[3].output[0]
    cls = hidden.__𝒸𝓁𝒶𝓈𝓈__
    logits = model.lm_head.output.save()
