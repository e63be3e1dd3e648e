# `import os.path as p` binds only the submodule, but importing it imports
# os, and os.path itself probes the server's file system (p.exists,
# p.expanduser) and re-exports os as p.os.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Paths") as tracer:
    import os.path as p

    present = p.exists("/etc/shadow")
    logits = model.lm_head.output.save()
