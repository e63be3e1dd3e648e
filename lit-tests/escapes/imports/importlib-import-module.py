# importlib.import_module imports any module by (possibly computed) name.
# importlib itself is imported at module level, outside the trace; the use
# inside the trace is what is refused.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import importlib

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Dynamic imports") as tracer:
    hidden = model.transformer.h[1].output[0]
    shutil = importlib.import_module("shutil")
    logits = model.lm_head.output.save()
