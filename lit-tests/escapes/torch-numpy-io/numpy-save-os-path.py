# numpy.save with a path built by os.path.join(os.environ[...]): the I/O
# alone would be ISOLATE, but the os reference makes it REJECT.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import os

import numpy as np

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Env paths") as tracer:
    hidden = model.transformer.h[11].output[0]
    np.save(os.path.join(os.environ["HOME"], "resid.npy"), hidden.detach().cpu().numpy())
    logits = model.lm_head.output.save()
