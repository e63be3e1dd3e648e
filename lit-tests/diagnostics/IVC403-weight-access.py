# IVC403: reading the weight or bias of the model or a submodule, and calling
# parameters() or named_parameters() on them, is a remark; the plan sets
# touches_weights and the mediator stays FAST. Attributes named weight of
# other values, and activations, are not weight reads.
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | FileCheck %s
import torch

with model.trace("The Eiffel Tower is in") as tracer:
    final = model.transformer.ln_f.output
    logits = (final @ model.lm_head.weight.T).save()  # expected-remark {{Trace body reads the weights of 'lm_head'}}
    shift = model.transformer.ln_f.bias  # expected-remark {{reads the weights of 'transformer.ln_f'}}
    count = sum(p.numel() for p in model.transformer.h[0].parameters())  # expected-remark {{reads the weights of 'transformer.h.0'}}
    names = [n for n, p in model.named_parameters()]  # expected-remark {{reads the weights of '<model>'}}

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[3].output[0]
    config = {"weight": 0.5}
    weight = config["weight"]
    weighted = (hidden * weight).save()
    logits = model.lm_head.output.save()

# CHECK:      "source": "
# CHECK-NEXT: "tier": "fast",
# CHECK-NEXT: "touches_weights": true
# CHECK:      "source": "
# CHECK-NEXT: "tier": "fast",
# CHECK-NEXT: "touches_weights": false
