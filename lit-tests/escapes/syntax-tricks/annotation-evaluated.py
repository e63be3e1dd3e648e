# Annotations of simple names at module level are evaluated: `x: expr = v`
# runs expr. nnsight 0.4 runs trace bodies at module level, so the exec in
# the annotation below runs; analyzers that skip annotations miss it.
# Known from: pyjail CTF write-ups that hide a binding or an evaluation from a
# statement-level check.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Annotations") as tracer:
    scale: exec("steps = 5") = 0.5
    model.transformer.h[2].output[0][:] *= scale
    logits = model.lm_head.output.save()
