# Inside a class body, `x.__name` (no trailing underscores) is rewritten to
# `x._Class__name`. In a class called _Printer, `target.__filenames` becomes
# `target._Printer__filenames`: the private file list of site's license /
# copyright / credits helpers, which pyjail write-ups overwrite to read any
# file. The analyzer must apply the mangling before judging the name.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class _Printer:
    def retarget(self, target):
        target.__filenames = ["/etc/passwd"]
        return target


with model.trace("Mangled names") as tracer:
    hidden = model.transformer.h[1].output[0]
    reader = _Printer().retarget(copyright)
    logits = model.lm_head.output.save()
