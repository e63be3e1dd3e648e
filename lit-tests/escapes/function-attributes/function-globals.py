# A Python function's __globals__ is its module's namespace, and that dict
# holds __builtins__, so eval/exec/__import__ are two subscripts away. This
# is the most common second step in pyjail write-ups and Python SSTI payloads.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def normalize(x):
    return x / x.norm(dim=-1, keepdim=True)


with model.trace("The cat sat on the") as tracer:
    hidden = normalize(model.transformer.h[6].output[0])
    run = normalize.__globals__["__builtins__"]["eval"]
    logits = model.lm_head.output.save()
