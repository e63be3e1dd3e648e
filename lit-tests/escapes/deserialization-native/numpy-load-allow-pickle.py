# numpy.load refuses object arrays unless allow_pickle=True, which turns it
# into pickle.load (CVE-2019-6446 was about the old default being True).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# torch and numpy I/O, JIT and native-loading entry points run in the sandboxed
# worker (ISOLATE: seccomp, no file reads, no dlopen of new files), per ivc's
# threat model; they are never FAST.
# CHECK: "tier": "isolate"
import numpy as np

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Numpy pickles") as tracer:
    hidden = model.transformer.h[9].output[0]
    extra = np.load("extra.npy", allow_pickle=True)
    logits = model.lm_head.output.save()
