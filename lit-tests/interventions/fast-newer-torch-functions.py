# Pure functions of torch releases newer than the one the op catalogue is
# generated from stay FAST: recomputing attention with
# scaled_dot_product_attention, RMS norm, and unravelling an argmax.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
import torch
import torch.nn.functional as F
from nnsight import LanguageModel

model = LanguageModel("meta-llama/Llama-3.2-1B")

with model.trace("The Eiffel Tower is in"):
    q = model.model.layers[3].self_attn.q_proj.output
    k = model.model.layers[3].self_attn.k_proj.output
    v = model.model.layers[3].self_attn.v_proj.output
    mixed = F.scaled_dot_product_attention(q, k, v, is_causal=True).save()
    normed = F.rms_norm(model.model.layers[3].output[0], (2048,)).save()
    pattern = q @ k.transpose(-1, -2)
    where = torch.unravel_index(pattern.flatten().argmax(), pattern.shape)
    peak = [int(i) for i in where]
