# torch.jit.script compiles a Python function by reading its source (via
# inspect) and builds a TorchScript graph: compiler machinery and file
# reads, not a catalogued tensor op.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def gelu_approx(x):
    return 0.5 * x * (1 + torch.tanh(0.79788456 * (x + 0.044715 * x ** 3)))


with model.trace("TorchScript") as tracer:
    scripted = torch.jit.script(gelu_approx)
    model.transformer.h[2].mlp.output[:] = scripted(model.transformer.h[2].mlp.output)
    logits = model.lm_head.output.save()
