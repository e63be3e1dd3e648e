# A coroutine object that was created but never awaited still has a frame:
# cr_frame, with f_globals of the module that defined the coroutine
# function. The coroutine twin of gi_frame, often forgotten by filters.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


async def fetch_direction():
    return None


with model.trace("Async all the way") as tracer:
    co = fetch_direction()
    scope = co.cr_frame.f_globals
    co.close()
    logits = model.lm_head.output.save()
