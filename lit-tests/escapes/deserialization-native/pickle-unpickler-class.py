# The Unpickler class is pickle.loads in object form (with find_class hooks
# that attackers love); refusing only the loads function is not enough.
# Known from: the pickle module's own documentation warning and malicious
# checkpoints published on model hubs.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import io
import pickle

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
blob = b"\x80\x04K\x01."

with model.trace("Unpickler") as tracer:
    hidden = model.transformer.h[2].output[0]
    value = pickle.Unpickler(io.BytesIO(blob)).load()
    logits = model.lm_head.output.save()
