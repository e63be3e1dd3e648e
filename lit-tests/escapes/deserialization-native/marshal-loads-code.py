# marshal.loads builds code objects from bytes; with the function type they
# become callable functions whose bytecode no source check ever saw.
# Known from: pysandbox discussions of code objects and pyjail CTF write-ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import marshal

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
blob = marshal.dumps(compile("1 + 1", "<x>", "eval"))

with model.trace("Marshal") as tracer:
    hidden = model.transformer.h[3].output[0]
    code = marshal.loads(blob)
    logits = model.lm_head.output.save()
