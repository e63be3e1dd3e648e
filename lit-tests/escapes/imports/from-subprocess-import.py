# `from subprocess import run` inside the body: a from-import binds the
# function, not the module, so a check on module attribute chains alone
# misses the later call to run(...).
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Shell out") as tracer:
    from subprocess import run

    run(["nvidia-smi"])
    logits = model.lm_head.output.save()
