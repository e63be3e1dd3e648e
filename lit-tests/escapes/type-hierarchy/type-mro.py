# The same walk without __bases__: the builtin type() plus the type's __mro__
# tuple, whose last entry is always `object`. Filters that only block
# `__class__`/`__bases__` (a common first attempt in pyjail challenges) miss it.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Paris is the capital of") as tracer:
    hidden = model.transformer.h[5].output[0]
    root = type(hidden).__mro__[-1]
    loaded = root.__subclasses__()
    out = model.lm_head.output.save()
