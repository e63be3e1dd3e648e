# Since Python 3.10 functions carry __builtins__ directly, so the builtins
# mapping (with __import__) is one attribute away from any helper, no
# __globals__ needed. Filters written for older Pythons miss it.
# Known from: pysandbox's blacklist of function attributes and pyjail CTF
# write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def clip(x):
    return x.clamp(-10, 10)


with model.trace("Roses are red") as tracer:
    model.transformer.h[2].output[0][:] = clip(model.transformer.h[2].output[0])
    loader = clip.__builtins__["__import__"]
    logits = model.lm_head.output.save()
