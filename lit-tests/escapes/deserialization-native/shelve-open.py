# shelve is pickle on disk: opening a shelf reads (and unpickles) files on
# the server, and writing one leaves files behind.
# Known from: the pickle module's own documentation warning and malicious
# checkpoints published on model hubs.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import shelve

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Shelves") as tracer:
    hidden = model.transformer.h[4].output[0]
    db = shelve.open("/tmp/activations")
    logits = model.lm_head.output.save()
