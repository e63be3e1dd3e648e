# IVC405: a weight changed in place is the trace's copy: a warning, in every
# form (an item stored, an augmented item, an in-place method, through a
# name, .T or .data). A copy the mediator made and an activation are fine.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Eiffel Tower is in"):
    model.lm_head.weight[:, 0] = 0  # expected-warning {{Trace body changes 'lm_head.weight' in place, but a trace sees the model's weights as a copy: the model is not changed}}
    model.transformer.h[0].mlp.c_proj.bias[0] += 1  # expected-warning {{changes 'transformer.h.0.mlp.c_proj.bias' in place}}
    model.lm_head.weight.zero_()  # expected-warning {{changes 'lm_head.weight' in place}}
    W = model.transformer.wte.weight
    W.T[0] = 1  # expected-warning {{changes 'transformer.wte.weight' in place}}
    W.data[0].mul_(2)  # expected-warning {{changes 'transformer.wte.weight' in place}}
    U = model.lm_head.weight.clone()
    U[:] = 0
    model.transformer.h[0].mlp.c_proj.output[:] = 0
    logits = (model.lm_head.weight * 2).sum().save()
