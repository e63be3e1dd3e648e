# torch.save into a file object from the builtin open(): open is a
# prohibited builtin under the default policy, so this one is REJECT, not
# merely ISOLATE.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Open files") as tracer:
    hidden = model.transformer.h[10].output[0]
    torch.save(hidden, open("/tmp/resid.pt", "wb"))
    logits = model.lm_head.output.save()
