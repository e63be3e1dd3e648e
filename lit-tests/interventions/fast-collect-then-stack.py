# Probing and logit-lens code collects into a list and stacks it into the
# same name. A name bound to both a list and a tensor may call the list's
# methods, and the tensor's methods no list has: on the other kind they
# raise AttributeError before anything runs.
# Expected: no remark; every mediator FAST.
# RUN: %ivc check --verify --remarks %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The Eiffel Tower is in"):
    hs = []
    for block in model.transformer.h:
        hs.append(block.output[0][:, -1])
    hs = torch.stack(hs).save()
    norms = {}
    norms.update({"first": hs[0].norm()})
    norms = torch.stack(list(norms.values()))
    cols = []
    cols.extend([hs[0], hs[1]])
    cols = torch.cat(cols).save()
    acts = [model.transformer.h[0].output[0], model.transformer.h[1].output[0]]
    acts = torch.stack(acts)
    mean = acts.mean(0).save()
    centered = (acts - acts.mean(0)).norm(dim=-1).save()

