# A class statement calls its metaclass with (name, bases, namespace): any
# callable passed as `metaclass=` runs at class creation. Here it is a
# module-level helper that imports a module named by the class body; the
# class statement looks inert.
# Known from: pyjail write-ups that run code through implicit dunder calls
# instead of explicit ones.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def registry(name, bases, namespace):
    return __import__(namespace["target"])


with model.trace("Metaclasses") as tracer:
    class Plugin(metaclass=registry):
        target = "os"

    logits = model.lm_head.output.save()
