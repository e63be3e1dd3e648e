# Llama module paths: model.model.layers[i].self_attn / .mlp, o_proj input slices.
# Expected: every mediator FAST, none differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

model = LanguageModel("meta-llama/Llama-3.2-1B")
HEAD_DIM = 64

with model.trace("The Great Wall is in") as tracer:
    attn_out = model.model.layers[10].self_attn.output[0].save()
    model.model.layers[10].self_attn.o_proj.input[:, :, 3 * HEAD_DIM:4 * HEAD_DIM] = 0
    model.model.layers[12].mlp.down_proj.output[:] *= 0.5
    logits = model.lm_head.output.save()
