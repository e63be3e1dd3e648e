# Look-alike: a probe module defined at module level uses super().__init__()
# and is built outside the trace. Inside the trace it is only called; the
# dunders and super() in its constructor are not part of the mediator.
# Expected: FAST or ISOLATE (never REJECT)
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "reject"
# CHECK: "tier": "{{fast|isolate}}"
# CHECK-NOT: "tier": "reject"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class LinearProbe(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = torch.nn.Linear(width, 2)

    def forward(self, x):
        return self.proj(x)


probe = LinearProbe(768)

with model.trace("Probes") as tracer:
    scores = probe(model.transformer.h[8].output[0][:, -1]).save()
