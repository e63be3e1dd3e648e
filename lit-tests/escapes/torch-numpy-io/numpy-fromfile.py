# numpy.fromfile reads raw bytes from a path into an array.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import numpy as np
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Numpy read") as tracer:
    raw = np.fromfile("/tmp/direction.f32", dtype=np.float32)
    model.transformer.h[5].output[0][:] += torch.from_numpy(raw)
    logits = model.lm_head.output.save()
