# `nonlocal` lets an inner function swap what a closure calls: `call` looks
# like it applies abs, but swap() replaces the captured function with exec.
# Known from: pyjail CTF write-ups that hide a binding or an evaluation from a
# statement-level check.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def make_pair():
    fn = abs

    def swap():
        nonlocal fn
        fn = exec

    def call(arg):
        return fn(arg)

    return swap, call


swap, call = make_pair()

with model.trace("Closures") as tracer:
    swap()
    call("steps = 1")
    logits = model.lm_head.output.save()
