# __import__("os") is the builtin behind the import statement; no import
# statement appears, and the module name is a string.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Builtin import") as tracer:
    hidden = model.transformer.h[0].output[0]
    system = __import__("os").system
    logits = model.lm_head.output.save()
