# torch.utils.cpp_extension.load_inline compiles C++ source with the host
# compiler and loads the result: arbitrary native code, built on the server.
# Known from: pyjail write-ups: native code ends every Python-level sandbox.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# torch and numpy I/O, JIT and native-loading entry points run in the sandboxed
# worker (ISOLATE: seccomp, no file reads, no dlopen of new files), per ivc's
# threat model; they are never FAST.
# CHECK: "tier": "isolate"
from torch.utils.cpp_extension import load_inline

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
source = "int answer() { return 42; }"

with model.trace("JIT extensions") as tracer:
    ext = load_inline(name="probe", cpp_sources=[source], functions=["answer"])
    logits = model.lm_head.output.save()
