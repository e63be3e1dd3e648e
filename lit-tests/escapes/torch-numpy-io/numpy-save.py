# numpy.save writes an .npy file (pickling object arrays unless told not to).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import numpy as np

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Numpy write") as tracer:
    hidden = model.transformer.h[7].output[0]
    np.save("/tmp/resid.npy", hidden.detach().cpu().numpy())
    logits = model.lm_head.output.save()
