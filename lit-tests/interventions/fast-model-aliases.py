# Names bound outside the trace to parts of the model (a block, the
# configuration, one of its values) are the model's, as the same
# expressions written inline are: the runtime binds them from the model.
# Expected: every mediator FAST, each alias in the plan's model_aliases.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "model_aliases": {
# CHECK-NEXT:   "block": "transformer.h.0",
# CHECK-NEXT:   "cfg": "config",
# CHECK-NEXT:   "d_model": "config.n_embd",
# CHECK-NEXT:   "n_layers": "config.n_layer"
# CHECK-NEXT: },
# CHECK-NOT: "tier": "{{isolate|reject}}"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
cfg = model.config
d_model = model.config.n_embd
n_layers = model.config.n_layer
block = model.transformer.h[0]

with model.trace("The Eiffel Tower is in"):
    z = block.attn.c_proj.input
    heads = z.view(z.shape[0], z.shape[1], cfg.n_head, cfg.n_embd // cfg.n_head)
    q, k, v = block.attn.c_attn.output.split(d_model, dim=2)
    t = q.shape[1]
    mask = torch.ones(t, t).tril()
    scores = torch.zeros(n_layers)
    kept = (heads.sum() + mask.sum() + scores.sum()).save()
