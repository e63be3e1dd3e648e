# torch.serialization imports pickle at module scope, so
# torch.serialization.pickle is pickle itself, reached through an allowed
# root.
# Known from: the pickle module's own documentation warning and malicious
# checkpoints published on model hubs.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
blob = b"\x80\x04N."

with model.trace("Serialization internals") as tracer:
    hidden = model.transformer.h[8].output[0]
    obj = torch.serialization.pickle.loads(blob)
    logits = model.lm_head.output.save()
