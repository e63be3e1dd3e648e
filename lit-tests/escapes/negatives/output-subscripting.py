# Look-alike: heavy subscripting of module outputs (tuples, slices, negative
# indices, ellipsis). Subscripts on nnsight values are tensor indexing, not
# dictionary lookups into namespaces.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Indexing") as tracer:
    first = model.transformer.h[0].output[0]
    last_token = model.transformer.h[-1].output[0][:, -1, :]
    head_slice = model.transformer.h[3].attn.output[0][..., 64:128]
    reversed_pos = first[0, ::-1]
    out = (last_token.sum() + head_slice.sum() + reversed_pos.sum()).save()
