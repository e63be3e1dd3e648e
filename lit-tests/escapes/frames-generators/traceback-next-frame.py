# tb_next walks a traceback towards the frame that raised; when the exception
# comes from a helper (or from library code) tb_next.tb_frame is that frame,
# with that code's globals. Here the frame is the helper's.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def check_layer(i):
    if i > 11:
        raise ValueError(i)
    return i


with model.trace("Layer by layer") as tracer:
    try:
        check_layer(99)
    except ValueError as err:
        inner_globals = err.__traceback__.tb_next.tb_frame.f_globals
    logits = model.lm_head.output.save()
