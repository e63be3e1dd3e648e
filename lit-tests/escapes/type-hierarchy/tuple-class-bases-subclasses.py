# The classic pyjail opener: any literal's __class__ leads to its type,
# __bases__[0] to `object`, and object.__subclasses__() lists every class the
# process has loaded, some of whose methods lead back to os or subprocess.
# It opens most pyjail CTF write-ups and the pysandbox post-mortem.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("The capital of France is") as tracer:
    hidden = model.transformer.h[3].output[0]
    classes = ().__class__.__bases__[0].__subclasses__()
    logits = model.lm_head.output.save()
