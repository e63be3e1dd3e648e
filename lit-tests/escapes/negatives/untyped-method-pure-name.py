# Methods every FAST value has stay FAST when handed to a caller, on values
# ivc cannot type too (a helper's parameter); a plain print is FAST.
# Expected: every mediator FAST.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def summarize(hidden, names):
    means = list(map(hidden.mean, [0, 1]))
    return sorted(names, key=str.lower), max(names, key=names.count), means


with model.trace("helpers"):
    hidden = model.transformer.h[0].output[0]
    result = summarize(hidden, ["b", "a"])
    print(result)
    model.lm_head.output[0, -1, 0] = 0
