# torch.onnx.export traces a module and writes a model file: file output
# plus a second tracing system running inside the trace.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Export") as tracer:
    hidden = model.transformer.h[0].output[0]
    torch.onnx.export(model.lm_head, (hidden,), "/tmp/head.onnx")
    logits = model.lm_head.output.save()
