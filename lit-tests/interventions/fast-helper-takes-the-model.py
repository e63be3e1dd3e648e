# A helper that takes the model as a parameter: every call passes part of
# the model, so the parameter is that part, and calling its submodules is
# running the model, as `model.lm_head(...)` inline is.
# Expected: no remark; every mediator FAST.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def decode(m, resid):
    return m.lm_head(m.transformer.ln_f(resid))


def block_out(block):
    return block.output[0]


with model.trace("The Eiffel Tower is in"):
    logits = decode(model, block_out(model.transformer.h[3])).save()
