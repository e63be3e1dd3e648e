# The dunder is a constant in the mediator, but the getattr is in a helper
# whose name argument is a parameter: the lookup is only visible through the
# call. A helper doing getattr(obj, name) with a non-constant name is itself
# the escape.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def field(obj, name):
    return getattr(obj, name)


with model.trace("Indirection") as tracer:
    hidden = model.transformer.h[7].output[0]
    cls = field(hidden, "__class__")
    logits = model.lm_head.output.save()
