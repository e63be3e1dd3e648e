# A free name bound to an activation in another trace has no kind in the
# plan: a block's output is a tuple, a layer's a tensor, and the caller gives
# back what was saved. A name bound to a tensor the file computes is one.
# RUN: %ivc plan %s | FileCheck %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
direction = torch.randn(768)

with model.trace("The Eiffel Tower is in"):
    block = model.transformer.h[0].output.save()

# CHECK:      "free_names": [],
# CHECK:      "free_names": [
# CHECK-NEXT:   "block",
# CHECK-NEXT:   "direction"
# CHECK-NEXT: ],
# CHECK:      "free_types": {
# CHECK-NEXT:   "direction": "tensor"
# CHECK-NEXT: },
with model.trace("The Eiffel Tower is in"):
    first = block[0] + direction
