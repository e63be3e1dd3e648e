# torch.classes.load_library is the TorchScript-classes twin of
# torch.ops.load_library: another dlopen behind a torch attribute.
# Known from: pyjail write-ups: native code ends every Python-level sandbox.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# torch and numpy I/O, JIT and native-loading entry points run in the sandboxed
# worker (ISOLATE: seccomp, no file reads, no dlopen of new files), per ivc's
# threat model; they are never FAST.
# CHECK: "tier": "isolate"
import torch

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Custom classes") as tracer:
    torch.classes.load_library("/tmp/libprobe.so")
    logits = model.lm_head.output.save()
