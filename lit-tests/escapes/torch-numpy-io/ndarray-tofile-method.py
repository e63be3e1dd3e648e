# The write is a method of the array, not a numpy function: .tofile(path).
# Method calls on values the analyzer cannot type must not be assumed pure.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Methods write too") as tracer:
    hidden = model.transformer.h[8].output[0]
    hidden.detach().cpu().numpy().tofile("/tmp/resid.bin")
    logits = model.lm_head.output.save()
