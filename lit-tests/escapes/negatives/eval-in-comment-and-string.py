# Look-alike: the words eval, exec and import in comments and in string data.
# Nothing is evaluated; a string is only dangerous when it reaches eval or a
# lookup.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Words") as tracer:
    # We eval the model on this prompt; do not exec anything or import os here.
    mode = "eval"
    note = "never call eval() or import os inside a trace"
    logits = model.lm_head.output.save()
