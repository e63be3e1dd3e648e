# Format fields also index: "{0.__globals__[SECRET]}" reads a module global
# through a function argument. This is the exact shape of the secret-leaking
# payload in write-ups on format-string injection in Python web apps.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

API_KEY = "server-side"


def norm(x):
    return x.norm(dim=-1)


with model.trace("Leaky labels") as tracer:
    hidden = norm(model.transformer.h[2].output[0])
    leaked = "{0.__globals__[API_KEY]}".format(norm)
    logits = model.lm_head.output.save()
