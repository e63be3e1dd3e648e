# torch.utils.cpp_extension imports subprocess at module scope (it shells out
# to the compiler), so torch.utils.cpp_extension.subprocess is subprocess.
# Known from: pyjail write-ups that reach os or sys through the module globals
# of an allowed package.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import torch.utils.cpp_extension

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Deep re-exports") as tracer:
    hidden = model.transformer.h[5].output[0]
    out = torch.utils.cpp_extension.subprocess.check_output(["uname", "-a"])
    logits = model.lm_head.output.save()
