# No walk needed when `object` is a builtin name: object.__subclasses__() and
# a search by class name (e.g. for a Popen or a file-wrapper class) is the
# short form seen in many pyjail solutions.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Hello world") as tracer:
    model.transformer.h[0].mlp.output[:] = 0
    popen = [c for c in object.__subclasses__() if c.__name__ == "Popen"]
    logits = model.lm_head.output.save()
