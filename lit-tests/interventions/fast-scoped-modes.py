# Thread-local modes a `with` restores on exit stay FAST as context
# managers: autocast and set_grad_enabled, like no_grad. Called alone,
# set_grad_enabled changes the thread's mode for whatever runs on it next
# (global-state), and so does handing it on. contextlib.nullcontext() does
# nothing, and a name bound once to a choice of such managers is entered as
# they are.
# RUN: %ivc check --verify --remarks %s
import contextlib

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("scoped"):
    with torch.autocast("cuda", dtype=torch.bfloat16):
        y = (model.transformer.h[3].output[0] @ torch.ones(768)).save()
    with torch.set_grad_enabled(False), torch.amp.autocast("cpu"):
        z = (model.transformer.h[4].output[0] * 2).save()

NEED_GRAD = False
with model.trace("chosen"):
    with contextlib.nullcontext():
        w = model.transformer.h[2].output[0].mean().save()
    chosen = contextlib.nullcontext() if NEED_GRAD else torch.no_grad()
    with chosen:
        v = model.transformer.h[5].output[0].mean().save()

with model.trace("left on"):
    torch.set_grad_enabled(False)  # expected-remark {{uses 'torch.set_grad_enabled' (global-state)}}
    mode = torch.set_grad_enabled  # expected-remark {{uses 'torch.set_grad_enabled' (global-state)}}
    cast = torch.autocast("cpu")  # expected-remark {{calls 'torch.autocast', which is not in the op catalog}}
