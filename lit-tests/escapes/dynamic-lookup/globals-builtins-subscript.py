# globals()["__builtins__"] is the builtins module (or dict): eval, exec,
# open, __import__. The dunder is a dict key here, not an attribute.
# Known from: RestrictedPython, whose compiler refuses every name and
# attribute starting with "_", and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Global state") as tracer:
    hidden = model.transformer.h[11].output[0]
    builtins_ns = globals()["__builtins__"]
    logits = model.lm_head.output.save()
