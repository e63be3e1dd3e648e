# Python folds identifiers to NFKC before looking them up, so fullwidth
# letters spell the same name: the call below is eval("1 + 1"). Filters that
# compare raw source text against a deny list miss it; known from pyjail
# challenges that ban ASCII keywords.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Wide letters") as tracer:
    hidden = model.transformer.h[2].output[0]
    value = ｅｖａｌ("1 + 1")
    logits = model.lm_head.output.save()
