# Subclassing runs the base's __init_subclass__ with the class keywords;
# the hook is defined at module level, so the mediator contains only an empty
# class statement, yet exec runs with a string of the caller's choosing.
# Known from: pyjail write-ups that run code through implicit dunder calls
# instead of explicit ones.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Plugin:
    def __init_subclass__(cls, code="", **kwargs):
        super().__init_subclass__(**kwargs)
        exec(code)


with model.trace("Subclass hooks") as tracer:
    class Mine(Plugin, code="steps = 2"):
        pass

    logits = model.lm_head.output.save()
