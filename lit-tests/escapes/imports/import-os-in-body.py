# The direct route: `import os` inside the trace body, then the process
# environment, files and os.system are available.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Environment") as tracer:
    import os

    token = os.environ.get("HF_TOKEN")
    logits = model.lm_head.output.save()
