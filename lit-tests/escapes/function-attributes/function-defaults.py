# __defaults__ is writable: replacing a helper's default arguments injects an
# object into code that never receives it explicitly. A known pysandbox-era
# trick for smuggling a value into trusted code.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def steer(hidden, scale=1.0):
    return hidden * scale


with model.trace("It was a dark and stormy") as tracer:
    steer.__defaults__ = (100.0,)
    model.transformer.h[5].output[0][:] = steer(model.transformer.h[5].output[0])
    logits = model.lm_head.output.save()
