# `import builtins` at module level, then builtins.exec in the trace: the
# builtins module is a prohibited module in its own right, since it is the
# back door to every prohibited builtin.
# Known from: every Python sandbox's first rule (pysandbox and
# RestrictedPython both guard __import__) and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import builtins

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Builtins module") as tracer:
    hidden = model.transformer.h[7].output[0]
    builtins.exec("steps = 1")
    logits = model.lm_head.output.save()
