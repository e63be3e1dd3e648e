# gi_code hands out the generator's code object without any dunder; code
# objects expose constants and names (co_consts, co_names) and are the input
# to the function constructor, which is why pyjail filters list gi_code next
# to __code__.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("A quick test") as tracer:
    hidden = model.transformer.h[0].output[0]
    gen = (i for i in range(3))
    code = gen.gi_code
    logits = model.lm_head.output.save()
