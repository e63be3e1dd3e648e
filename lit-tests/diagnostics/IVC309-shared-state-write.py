# IVC309: assigning or deleting an attribute of a module, or of the model or
# one of its submodules other than its activations, is a remark that makes
# the mediator ISOLATE. Writing .output / .input / .inputs (nnsight's
# interventions), and attributes of the mediator's own objects, are not.
# RUN: %ivc check --verify %s
import math
import torch


def disable_dropout():
    model.transformer.h[0].attn.attn_dropout.p = 0.0  # expected-remark {{Function 'disable_dropout' writes attribute 'p' of the model's 'transformer.h.0.attn.attn_dropout'}}


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[0].output[0]
    model.transformer.h[0].attn.scale = 2.0  # expected-remark {{Trace body writes attribute 'scale' of the model's 'transformer.h.0.attn'}}
    del model.transformer.h[1].mlp.act  # expected-remark {{writes attribute 'act' of the model's 'transformer.h.1.mlp'}}
    model.lm_head.weight = hidden  # expected-remark {{writes attribute 'weight' of the model's 'lm_head'}}
    model.training = False  # expected-remark {{writes attribute 'training' of the model}}
    math.tau = 6.0  # expected-remark {{writes attribute 'tau' of module 'math'}}
    torch.backends.cudnn.benchmark = True  # expected-remark {{writes attribute 'benchmark' of module 'torch.backends.cudnn'}} expected-remark {{uses 'torch.backends' (global-state)}}
    for block in model.transformer.h:
        block.mlp.enabled = False  # expected-remark {{writes attribute 'enabled' of the model's 'transformer.h.*.mlp'}}
    disable_dropout()

    # Interventions on activations, and the mediator's own objects: not reported.
    model.transformer.h[2].output = model.transformer.h[1].output
    model.transformer.h[3].input = hidden
    probe = hidden.clone()
    probe.requires_grad = True
