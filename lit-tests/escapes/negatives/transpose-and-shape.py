# Look-alike: short tensor attributes (.T, .mT, .shape, .ndim, .dtype).
# They are catalogued tensor properties, not introspection.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Tensor properties") as tracer:
    h = model.transformer.h[6].output[0][0]
    gram = h.T @ h
    batch_t = model.transformer.h[6].output[0].mT
    dims = (h.shape, h.ndim, h.dtype)
    out = (gram.sum() + batch_t.sum()).save()
