# IVC401: updating a delivered activation in place (slice assignment,
# augmented assignment on it or on a name bound to it, in-place tensor
# methods) is a remark; the plan records `in_place` for the module and the
# mediator stays FAST. Assigning .output, and updating a copy or a new
# tensor computed from the activation, or its autograd flag
# (`requires_grad_`), are not in-place updates.
# RUN: %ivc check --verify %s
# RUN: %ivc plan %s | FileCheck %s
import torch

steering = torch.randn(768)

with model.trace("The weather today is") as tracer:
    hidden = model.transformer.h[6].output[0]
    hidden[:, -1] += steering  # expected-remark {{Trace body updates the output of 'transformer.h.6' in place; the plan records it so a worker carries it back}}
    model.transformer.h[6].output[0][:] = hidden * 2  # expected-remark {{updates the output of 'transformer.h.6' in place}}
    resid = model.transformer.h[7].output[0]
    resid += 1  # expected-remark {{updates the output of 'transformer.h.7' in place}}
    resid.mul_(0.5)  # expected-remark {{updates the output of 'transformer.h.7' in place}}
    model.transformer.h[8].mlp.output.zero_()  # expected-remark {{updates the output of 'transformer.h.8.mlp' in place}}
    pre = model.transformer.h[9].input
    pre[0] = 0  # expected-remark {{updates the input of 'transformer.h.9' in place}}

    # Not in place: a write of the whole activation, a copy, a new tensor,
    # an autograd flag.
    model.transformer.h[10].output = model.transformer.h[9].output
    model.transformer.h[10].output.requires_grad_(True)
    copy = model.transformer.h[11].output[0].clone()
    copy += 1
    copy.zero_()
    scaled = model.transformer.h[11].output[0] * 2
    scaled += 1
    logits = model.lm_head.output.save()

# Modules are sorted by path; a copy (h.11) is only read.
# CHECK:      "path": "lm_head"
# CHECK:      "accesses": [
# CHECK-NEXT:   "output.read",
# CHECK-NEXT:   "output.write"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.10"
# CHECK:      "accesses": [
# CHECK-NEXT:   "output.read"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.11"
# CHECK:      "accesses": [
# CHECK-NEXT:   "output.in_place",
# CHECK-NEXT:   "output.read"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.6"
# CHECK:      "accesses": [
# CHECK-NEXT:   "output.in_place",
# CHECK-NEXT:   "output.read"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.7"
# CHECK:      "accesses": [
# CHECK-NEXT:   "output.in_place",
# CHECK-NEXT:   "output.read"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.8.mlp"
# CHECK:      "accesses": [
# CHECK-NEXT:   "input.in_place",
# CHECK-NEXT:   "input.read",
# CHECK-NEXT:   "output.read"
# CHECK-NEXT: ],
# CHECK-NEXT: "path": "transformer.h.9"
# CHECK:      "source": "
# CHECK-NEXT: "tier": "fast",
