# nnsight 0.5 skip: a block is bypassed and its input passed on as its output.
# Expected: every mediator FAST, none differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Skipping layers") as tracer:
    block_input = model.transformer.h[7].input
    model.transformer.h[7].skip((block_input,))
    logits = model.lm_head.output.save()
