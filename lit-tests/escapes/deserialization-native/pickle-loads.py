# pickle.loads runs code: a pickle's REDUCE opcode calls any importable
# callable with chosen arguments (os.system, "..."). The canonical
# deserialization escape, and why the worker never unpickles worker bytes.
# Known from: the pickle module's own documentation warning and malicious
# checkpoints published on model hubs.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import pickle

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
payload = b"\x80\x04N."

with model.trace("Unpickle") as tracer:
    hidden = model.transformer.h[1].output[0]
    obj = pickle.loads(payload)
    logits = model.lm_head.output.save()
