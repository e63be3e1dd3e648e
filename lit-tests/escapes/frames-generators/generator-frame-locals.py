# f_locals of the caller's frame is the server's local state at the point it
# runs the mediator: other requests' inputs, the model handle, credentials in
# scope. Reached from a generator without any dunder.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Secret agent") as tracer:
    gen = (h for h in [model.transformer.h[2].output[0]])
    caller_state = gen.gi_frame.f_back.f_locals
    logits = model.lm_head.output.save()
