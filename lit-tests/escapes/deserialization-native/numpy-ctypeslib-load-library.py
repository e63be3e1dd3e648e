# numpy.ctypeslib.load_library is ctypes.CDLL with a search path: native
# code through numpy, a module a policy is likely to allow.
# Known from: pyjail write-ups: native code ends every Python-level sandbox.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# torch and numpy I/O, JIT and native-loading entry points run in the sandboxed
# worker (ISOLATE: seccomp, no file reads, no dlopen of new files), per ivc's
# threat model; they are never FAST.
# CHECK: "tier": "isolate"
import numpy as np

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Numpy native") as tracer:
    hidden = model.transformer.h[10].output[0]
    lib = np.ctypeslib.load_library("libfast", "/tmp")
    logits = model.lm_head.output.save()
