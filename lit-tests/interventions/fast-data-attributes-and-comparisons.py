# Everyday research code that reads fields of outputs and results and
# compares tensors stays FAST: `model.output.logits`, `tracer.result`,
# `.topk(k).indices`, `svd(h).Vh`, a field of a module-level object; a
# comparison of tensors is a tensor of bools (`(h > 0).float()`), and so is
# the negation of a helper's parameter (`-logits`).
# Expected: every mediator FAST.
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
sae = load_sae()


def nll(logits, target):
    return (-logits.log_softmax(-1)[..., target]).mean()


with model.trace("The Eiffel Tower is in"):
    logits = model.output.logits.save()
    top5 = model.lm_head.output[0, -1].topk(5).indices.save()
    h = model.transformer.h[6].mlp.output
    frac_active = (h > 0).float().mean().save()
    accuracy = (logits.argmax(-1) == top5[0]).float().mean().save()
    energy = torch.linalg.svd(h[0]).Vh.norm(dim=-1).save()
    decoder_norms = sae.W_dec.norm(dim=-1).save()
    loss = nll(model.lm_head.output[0, -1], 42).save()

with model.generate("Once upon a time", max_new_tokens=5) as tracer:
    out = tracer.result.save()
