# An assignment expression inside a comprehension binds in the enclosing
# scope: after the comprehension, `len` is exec. Later calls to `len` must
# not be resolved to the builtin.
# Known from: pyjail CTF write-ups that hide a binding or an evaluation from a
# statement-level check.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Walrus") as tracer:
    _ = [(len := exec) for _ in [0]]
    len("steps = 4")
    logits = model.lm_head.output.save()
