# ctypes.pythonapi exposes the CPython C API: PyRun_SimpleString runs source
# text in __main__, and raw memory writes can rewrite any object.
# Known from: pyjail write-ups: native code ends every Python-level sandbox.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import ctypes

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("C API") as tracer:
    hidden = model.transformer.h[6].output[0]
    ctypes.pythonapi.PyRun_SimpleString(b"steps = 1")
    logits = model.lm_head.output.save()
