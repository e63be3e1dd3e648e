# IVC309: writing an attribute of the model or of a module is a shared-state
# write however the code reaches the object: through a helper's parameter,
# through a loop over a list of submodules held in a variable, or with
# setattr (where the policy allows it). Each write below must be a remark and
# make the mediator ISOLATE, so it never changes the shared model or torch in
# the server process.
# RUN: %ivc check --verify --policy %S/Inputs/allow-getattr.toml %s
import torch


def disable_dropout(block):
    block.attn.attn_dropout.p = 0.0  # expected-remark {{writes attribute 'p'}}


with model.trace("The Eiffel Tower is in") as tracer:
    disable_dropout(model.transformer.h[0])
    blocks = [model.transformer.h[4], model.transformer.h[5]]
    for block in blocks:
        block.mlp.enabled = False  # expected-remark {{writes attribute 'enabled' of the model's}}
    setattr(model.transformer.h[6].attn, "scale", 2.0)  # expected-remark {{writes attribute 'scale' of the model's 'transformer.h.6.attn'}}
    setattr(torch, "default_scale", 2.0)  # expected-remark {{writes attribute 'default_scale' of module 'torch'}}
