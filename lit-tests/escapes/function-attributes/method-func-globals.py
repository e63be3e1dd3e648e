# A bound method hides its function behind __func__ (and its instance behind
# __self__); method.__func__.__globals__ reaches the module namespace from
# any object with a Python-level method. Python 2 spelled it im_func.
# Known from: pysandbox's blacklist of function attributes and pyjail CTF
# write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Probe:
    def describe(self):
        return "probe"


probe = Probe()

with model.trace("In the beginning") as tracer:
    scope = probe.describe.__func__.__globals__
    logits = model.lm_head.output.save()
