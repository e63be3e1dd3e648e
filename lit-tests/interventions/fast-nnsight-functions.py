# nnsight's functions that need no tracer stay FAST: nnsight.save(x) saves
# x (as x.save() does: the plan saves the name, and an activation gets a
# save access), nnsight.list() and nnsight.dict() make containers that can
# be saved, nnsight.log prints, nnsight.apply(fn, *args) calls fn, a
# function of the file (judged where it is defined; a catalogued function's
# arguments would go unchecked). Other nnsight functions are not confirmed.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK:      "output.read",
# CHECK-NEXT: "output.save"
# CHECK:      "saves": [
# CHECK-NEXT:   "hidden",
# CHECK-NEXT:   "norms",
# CHECK-NEXT:   "seen"
# CHECK-NEXT: ],
# CHECK:      "tier": "fast"
# CHECK:      "tier": "isolate"
import nnsight
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
probe = torch.nn.Linear(768, 2)


def last_mean(x):
    return x.mean(dim=-1)


with model.trace("The Eiffel Tower is in"):
    hidden = nnsight.save(model.transformer.h[-1].output[0])
    norms = nnsight.list().save()
    for block in model.transformer.h:
        norms.append(block.output[0].norm())
    seen = nnsight.dict(layers=len(norms)).save()
    nnsight.log("layers", seen["layers"])
    mean = nnsight.apply(last_mean, model.transformer.ln_f.output)

with model.trace("The Eiffel Tower is in"):
    top = nnsight.trace(max)  # expected-remark {{calls 'nnsight.trace', which is not in the op catalog}}
    big = nnsight.apply(torch.ones, 2**30)  # expected-remark {{hands 'torch.ones' to a callee that applies it to values ivc does not size}} expected-remark {{calls 'nnsight.apply', which is not in the op catalog}}
    ran = nnsight.apply(probe, 1)  # expected-remark {{uses 'probe' as a value (what receives it calls it)}} expected-remark {{calls 'nnsight.apply', which is not in the op catalog}}
    pooled = nnsight.apply(torch.nn.functional.avg_pool1d, top, 1, divisor_override=-1)  # expected-remark {{calls 'nnsight.apply', which is not in the op catalog}} expected-remark {{uses 'torch.nn.functional.avg_pool1d as a value'}}
