# torch.ops.load_library dlopen()s a shared object; its constructors run
# native code inside the server with no Python in sight.
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

with model.trace("Custom ops") as tracer:
    torch.ops.load_library("/tmp/libfastops.so")
    logits = model.lm_head.output.save()
