# Look-alike: a probe class defined at module level and built outside the
# trace; inside the trace it is only called. A same-file class makes the
# mediator ISOLATE (its methods run in the worker), not REJECT, and so does
# the cooperative super().__init__() of its constructor.
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

    def __call__(self, x):
        return self.proj(x)


probe = LinearProbe(768)

with model.trace("Probes") as tracer:
    scores = probe(model.transformer.h[8].output[0][:, -1]).save()
