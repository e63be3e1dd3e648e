# IVC220 under the strict policy, which allows no isolation: a mediator that
# would be ISOLATE is an error at its invoke's `with` line, or at the trace's
# for a trace without invokes, naming the first reason's rule; the reasons
# stay remarks. FAST mediators next to it are not affected, and the plan
# shows each mediator's tier.
# RUN: %ivc check --verify --policy strict %s
# RUN: %ivc plan --policy strict %s | FileCheck %s
import torch

with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):  # expected-error {{Invoke body needs a sandboxed worker (while-loop), which policy 'strict' does not allow}}
        layer = 0
        while layer < 4:  # expected-remark {{Invoke body has a while loop}}
            layer += 1
        deep = model.transformer.h[layer].output[0].save()
    with tracer.invoke("The Colosseum is in"):
        for block in range(4):
            pass
        with torch.no_grad():
            shallow = model.transformer.h[block].output[0].save()

with model.trace("The Eiffel Tower is in") as tracer:  # expected-error {{Trace body needs a sandboxed worker (try-block), which policy 'strict' does not allow}}
    try:  # expected-remark {{Trace body has a try block}}
        hidden = model.transformer.h[40].output[0].save()
    except BaseException:
        hidden = None
    while hidden is None:  # expected-remark {{Trace body has a while loop}}
        break

# CHECK:      "kind": "invoke",
# CHECK:      "code": "IVC220",
# CHECK:      "source": "
# CHECK-NEXT: "tier": "reject",
# CHECK:      "kind": "invoke",
# CHECK:      "source": "
# CHECK-NEXT: "tier": "fast",
# CHECK:      "kind": "body",
# CHECK:      "code": "IVC220",
# CHECK:      "source": "
# CHECK-NEXT: "tier": "reject",
