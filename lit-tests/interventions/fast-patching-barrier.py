# Activation patching across two invokes with a barrier (nnsight 0.5): the
# barrier line outside the invokes is a third, body mediator.
# Expected: every mediator FAST, none differentiates.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=GRAD
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
# GRAD-NOT: "differentiate": true
# GRAD: "differentiate": false
# GRAD-NOT: "differentiate": true
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace() as tracer:
    barrier = tracer.barrier(2)
    with tracer.invoke("When John and Mary went out, Mary gave it to"):
        clean = model.transformer.h[5].output[0][:, -1, :]
        barrier()
    with tracer.invoke("When John and Mary went out, John gave it to"):
        barrier()
        model.transformer.h[5].output[0][:, -1, :] = clean
        patched = model.lm_head.output[0, -1].save()
