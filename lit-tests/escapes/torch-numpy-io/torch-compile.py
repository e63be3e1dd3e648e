# torch.compile invokes Dynamo and Inductor: bytecode rewriting, code
# generation, a C++/Triton compiler in a subprocess and a cache on disk.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def rms(x):
    return x / x.pow(2).mean(-1, keepdim=True).sqrt()


with model.trace("Compile") as tracer:
    fast_rms = torch.compile(rms)
    hidden = fast_rms(model.transformer.h[4].output[0])
    logits = model.lm_head.output.save()
