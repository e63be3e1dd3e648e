# operator.attrgetter("__globals__") builds a callable that performs the
# attribute access later, from C, where no source check runs. Dotted paths
# ("__init__.__globals__") work too.
# Known from: pyjail CTF write-ups that defeat text filters.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import operator

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def unit(x):
    return x / x.norm()


with model.trace("Operators") as tracer:
    hidden = unit(model.transformer.h[2].output[0])
    scope = operator.attrgetter("__globals__")(unit)
    logits = model.lm_head.output.save()
