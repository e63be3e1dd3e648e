# The frame walk can live in a helper the trace calls; the mediator's own
# text is innocent. The analyzer must follow same-file calls (and report the
# call path in `via`), not only scan the with-block.
# Known from: pysandbox's attribute blacklist (it hid frame, code and
# traceback attributes) and RestrictedPython CVE-2023-37271 (stack frames
# reached from generators).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def layer_stats(hidden):
    probe = (v for v in [hidden])
    context = probe.gi_frame.f_back.f_back.f_globals
    return hidden.mean(dim=-1)


with model.trace("Helpers everywhere") as tracer:
    stats = layer_stats(model.transformer.h[6].output[0]).save()
