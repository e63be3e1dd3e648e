# inspect.currentframe() is sys._getframe() under a friendlier name; inspect
# also offers stack(), getouterframes() and getclosurevars(), all of which
# hand out frames or closure values.
# Known from: pysandbox, which removed sys._getframe, and pyjail CTF write-
# ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import inspect

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Look around") as tracer:
    hidden = model.transformer.h[10].output[0]
    caller_locals = inspect.currentframe().f_back.f_locals
    logits = model.lm_head.output.save()
