# Every frame carries f_builtins, the builtins dict it runs with; from a
# generator's own frame that is exec/eval/__import__ with no dunder
# attribute and no f_back needed.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Tick tock") as tracer:
    gen = (n for n in (1, 2))
    run = gen.gi_frame.f_builtins["exec"]
    logits = model.lm_head.output.save()
