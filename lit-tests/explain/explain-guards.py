# ivc explain lists what a FAST verdict assumes of the caller's values
# (guards), which a runtime checks, and points to IVC313.
# RUN: %ivc explain %s:10 | FileCheck %s
import torch


def run(model, prompt, k, coeff, vec):
    with model.trace(prompt):
        h = model.transformer.h[0].output[0]
        top = torch.zeros(k, 2).save()
        steered = (h + coeff * vec).save()
# CHECK:      is FAST while the caller's values are what the analysis assumed; a runtime checks them, and runs it ISOLATE otherwise.
# CHECK-NEXT:   - coeff: an int, a float or a tensor
# CHECK-NEXT:   - k: an int or a float of at most 65536
# CHECK-NEXT:   - vec: an int, a float or a tensor
# CHECK:      IVC313
