# An assignment expression inside a comprehension binds in the enclosing
# scope: after the comprehension, `len` is exec. Later calls to `len` must
# not be resolved to the builtin.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Walrus") as tracer:
    _ = [(len := exec) for _ in [0]]
    len("steps = 4")
    logits = model.lm_head.output.save()
