# torch.load(..., weights_only=False) is pickle.load with extra steps: any
# callable named in the checkpoint runs. (Even weights_only=True had an RCE,
# CVE-2025-32434, before torch 2.6.) Explicitly asking for the full
# unpickler is refused.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# torch and numpy I/O, JIT and native-loading entry points run in the sandboxed
# worker (ISOLATE: seccomp, no file reads, no dlopen of new files), per ivc's
# threat model; they are never FAST.
# CHECK: "tier": "isolate"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Checkpoints") as tracer:
    hidden = model.transformer.h[7].output[0]
    probe = torch.load("probe.pt", weights_only=False)
    logits = model.lm_head.output.save()
