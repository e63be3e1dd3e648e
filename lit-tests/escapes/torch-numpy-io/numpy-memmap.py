# numpy.memmap maps a file into memory, read-write by default ("r+"): reads
# and writes to the server's disk through array indexing.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "{{isolate|reject}}"
import numpy as np

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Memory maps") as tracer:
    store = np.memmap("/tmp/acts.dat", dtype=np.float32, mode="w+", shape=(768,))
    logits = model.lm_head.output.save()
