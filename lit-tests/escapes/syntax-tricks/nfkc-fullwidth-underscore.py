# U+FF3F FULLWIDTH LOW LINE may not start an identifier but may continue
# one, and it folds to "_": the name below is __import__. A check that looks
# for "__" in the source sees only one ASCII underscore at a time.
# Known from: pyjail challenges that filter ASCII keywords; PEP 3131 specifies
# the NFKC folding.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Low lines") as tracer:
    hidden = model.transformer.h[4].output[0]
    loader = _＿import_＿
    logits = model.lm_head.output.save()
