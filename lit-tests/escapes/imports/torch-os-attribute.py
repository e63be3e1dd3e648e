# torch/__init__.py does `import os` (and sys, ctypes, importlib, builtins)
# at module scope and never deletes them, so `torch.os` *is* the os module.
# An allowed module can re-export a prohibited one; attribute chains must
# be resolved to the module they reach, not trusted by their root.
# Known from: pyjail write-ups that reach os or sys through the module globals
# of an allowed package.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Re-exports") as tracer:
    hidden = model.transformer.h[4].output[0]
    torch.os.system("id")
    logits = model.lm_head.output.save()
