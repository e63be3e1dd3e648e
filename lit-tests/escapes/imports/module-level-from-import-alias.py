# `from os import system as log_metrics`: a prohibited function under an
# innocent name, imported at module level and called in the trace.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from os import system as log_metrics

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Innocent names") as tracer:
    hidden = model.transformer.h[3].output[0]
    log_metrics("echo done")
    logits = model.lm_head.output.save()
