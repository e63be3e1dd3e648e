# torch.from_file maps a file into a tensor's storage (optionally shared, so
# writes go back to the file): file I/O dressed as a tensor constructor.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("From file") as tracer:
    noise = torch.from_file("/tmp/noise.bin", size=768, dtype=torch.float32)
    model.transformer.h[3].output[0][:] += noise
    logits = model.lm_head.output.save()
