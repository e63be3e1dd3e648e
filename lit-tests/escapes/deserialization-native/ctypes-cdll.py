# ctypes.CDLL(None) is the process's own symbol table, libc included:
# .system(b"...") runs a shell with no Python-level check in the way.
# Known from: pyjail write-ups: native code ends every Python-level sandbox.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import ctypes

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Native calls") as tracer:
    hidden = model.transformer.h[5].output[0]
    libc = ctypes.CDLL(None)
    libc.system(b"id")
    logits = model.lm_head.output.save()
