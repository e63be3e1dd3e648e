# einops' rearrange, reduce and einsum keep or shrink what they are given
# and stay FAST; repeat allocates by axis lengths ivc does not size, and a
# reduction given as a value ivc cannot type is called by reduce.
# RUN: %ivc check --verify --remarks %s
import einops
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
probe = torch.nn.Linear(64, 1)

with model.trace("The Eiffel Tower is in"):
    z = model.transformer.h[9].attn.c_proj.input
    heads = einops.rearrange(z, "b s (h d) -> b s h d", h=12)
    mean = einops.reduce(heads, "b s h d -> b h d", "mean").save()
    scores = einops.einsum(heads, heads, "b s h d, b t h d -> b h s t").save()

with model.trace("The Eiffel Tower is in"):
    z = model.transformer.h[9].attn.c_proj.input
    tiled = einops.repeat(z, "b s d -> b s d n", n=2**20)  # expected-remark {{calls 'einops.repeat', which is not in the op catalog}}
    odd = einops.reduce(z, "b s d -> b d", probe)  # expected-remark {{uses 'probe' as a value (what receives it calls it)}}
