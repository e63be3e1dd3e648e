# The plan gives each mediator its tier, reasons with their call path,
# modules with accesses (static indices resolved, `*` where they are not),
# saves, free names, definitions (callees first) and its own source.
# RUN: %ivc plan %s | FileCheck %s
def scale(h, k):
    return h * k

def unembed(h):
    return model.lm_head(scale(h, FACTOR))

with model.trace("The Eiffel Tower is in") as tracer:
    h = model.transformer.h[5].output[0]
    h[:, -1] += steering
    for layer in model.transformer.h:
        layer.mlp.output[:] = 0
    logits = unembed(h).save()
    while False:
        pass
# CHECK:      "definitions": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "scale",
# CHECK-NEXT:     "source": "def scale(h, k):\n    return h * k\n"
# CHECK:          "name": "unembed",
# CHECK:      "differentiate": false,
# CHECK:      "free_names": [
# CHECK-NEXT:   "FACTOR",
# CHECK-NEXT:   "steering"
# CHECK-NEXT: ],
# CHECK:      "kind": "body",
# CHECK:      "modules": [
# CHECK:          "path": "transformer.h.*.mlp"
# CHECK:          "accesses": [
# CHECK-NEXT:       "output.in_place",
# CHECK-NEXT:       "output.read"
# CHECK-NEXT:     ],
# CHECK-NEXT:     "path": "transformer.h.5"
# CHECK:      "reasons": [
# CHECK:          "code": "IVC301",
# CHECK:          "via": [
# CHECK-NEXT:       "body L17",
# CHECK-NEXT:       "while False: pass"
# CHECK:      "saves": [
# CHECK-NEXT:   "logits"
# CHECK-NEXT: ],
# CHECK-NEXT: "source": "h = model.transformer.h[5].output[0]\nh[:, -1] += steering\nfor layer in model.transformer.h:\n    layer.mlp.output[:] = 0\nlogits = unembed(h).save()\nwhile False:\n    pass\n",
# CHECK:      "tier": "isolate",
