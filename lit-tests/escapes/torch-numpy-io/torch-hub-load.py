# torch.hub.load downloads a repository and runs its hubconf.py: remote code
# by design. Never FAST; a policy may well refuse it outright.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Hub") as tracer:
    probe = torch.hub.load("someone/probes", "linear_probe")
    logits = model.lm_head.output.save()
