# torch.sys is sys (torch/__init__.py imports it), and sys.modules is a
# dict of every imported module: os, subprocess, socket by string key.
# Known from: pyjail write-ups that reach os or sys through the module globals
# of an allowed package.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Module table") as tracer:
    hidden = model.transformer.h[6].output[0]
    os_module = torch.sys.modules["os"]
    logits = model.lm_head.output.save()
