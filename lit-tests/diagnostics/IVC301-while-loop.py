# IVC301: a while loop in a mediator's effective code (also in a function it
# calls) is a remark and makes the mediator ISOLATE. A for loop, a
# comprehension and a name containing "while" are not; that mediator stays
# FAST.
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | FileCheck %s
import torch


def halve_until(hidden, limit):
    scale = 1.0
    while hidden.norm() * scale > limit:  # expected-remark {{Function 'halve_until' has a while loop}}
        scale /= 2
    return scale


with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[8].output[0]
    steps = 0
    while steps < 3:  # expected-remark {{Trace body has a while loop}}
        steps += 1
    scale = halve_until(hidden, 100.0)
    out = model.lm_head.output.save()

with model.trace("The Eiffel Tower is in") as tracer:
    meanwhile = 0
    for layer in range(4):
        meanwhile += layer
    norms = [model.transformer.h[i].output[0].norm() for i in range(4)]
    out = model.lm_head.output.save()

# CHECK:      "traces": [
# CHECK:      "reasons": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "code": "IVC301",
# CHECK-NEXT:     "message": "Function 'halve_until' has a while loop",
# CHECK:          "via": [
# CHECK-NEXT:       "body L22",
# CHECK-NEXT:       "halve_until() L12",
# CHECK:      "source": "
# CHECK-NEXT: "tier": "isolate",
# CHECK:      "reasons": [],
# CHECK:      "source": "
# CHECK-NEXT: "tier": "fast",
