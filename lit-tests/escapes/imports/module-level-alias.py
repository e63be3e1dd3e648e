# The prohibited module is imported and aliased at module level, which runs
# on the researcher's side; the trace only calls `run(...)`. Names must be
# resolved through module-level bindings to what they really are.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import subprocess

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
run = subprocess.run

with model.trace("Aliased") as tracer:
    hidden = model.transformer.h[2].output[0]
    run(["id"])
    logits = model.lm_head.output.save()
