# type(f) is the function type; calling it with an existing code object and a
# fresh globals dict builds a new function whose globals the caller chose,
# including a __builtins__ of its own. A staple of pysandbox attacks and of
# RestrictedPython bypass discussions.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def identity(x):
    return x


with model.trace("The end is") as tracer:
    rebuilt = type(identity)(identity.__code__, {"torch": None})
    logits = model.lm_head.output.save()
