# Nested class patterns walk a whole attribute chain:
# gen.gi_frame.f_back.f_globals, bound to `scope`, without a single `.` or
# dunder. Every keyword in a class pattern must be checked like an attribute.
# Known from: pyjail write-ups after PEP 634 added match statements, and
# RestrictedPython CVE-2023-37271 (stack frames reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Nested patterns") as tracer:
    gen = (x for x in [0])
    match gen:
        case object(gi_frame=object(f_back=object(f_globals=scope))):
            pass
    logits = model.lm_head.output.save()
