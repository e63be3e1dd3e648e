# Same-file helpers and a closure, reached from the trace: both are plain
# tensor code, so the mediator stays FAST (they land in `definitions`).
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


def project_out(hidden, direction):
    unit = direction / direction.norm()
    return hidden - (hidden * unit).sum(dim=-1, keepdim=True) * unit


def make_scale(alpha):
    def scale(x):
        return x * alpha
    return scale


halve = make_scale(0.5)

with model.trace("Tell me a story") as tracer:
    h = model.transformer.h[5].output[0]
    model.transformer.h[5].output[0][:] = halve(project_out(h, h[0, 0]))
    logits = model.lm_head.output.save()
