# Modifier letters (U+1D43 MODIFIER LETTER SMALL A) fold to their base
# letter, so __clᵃss__ is __class__. One odd character in an otherwise
# ASCII name is the subtlest form.
# Known from: pyjail challenges that filter ASCII keywords; PEP 3131 specifies
# the NFKC folding.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Modifier letters") as tracer:
    hidden = model.transformer.h[5].output[0]
    cls = hidden.__clᵃss__
    logits = model.lm_head.output.save()
