# Async generators expose their frame as ag_frame (and their code as
# ag_code): the third spelling of the same frame leak, after gi_frame and
# cr_frame.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


async def stream_layers():
    yield 0


with model.trace("Streams and rivers") as tracer:
    agen = stream_layers()
    builtins_dict = agen.ag_frame.f_builtins
    logits = model.lm_head.output.save()
