# Look-alike: nnsight's .input and .inputs are envoy attributes (a module's
# first argument / all arguments), unrelated to the input() builtin.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Inputs") as tracer:
    first_arg = model.transformer.h[2].input.save()
    all_args = model.transformer.h[2].mlp.inputs.save()
