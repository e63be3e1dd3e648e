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

# A loop's variable over a range is a number; what the model's other
# attributes make (`model.tokenizer(...)`) has no kind: ivc types it only
# roughly, and it may be a list or an int.
target = model.tokenizer(" Paris")["input_ids"][0]
# CHECK:      "free_names": [
# CHECK-NEXT:   "layer",
# CHECK-NEXT:   "target",
# CHECK-NEXT:   "torch"
# CHECK-NEXT: ],
# CHECK:      "free_types": {
# CHECK-NEXT:   "layer": "number"
# CHECK-NEXT: },
for layer in range(12):
    with model.trace("The Eiffel Tower is in"):
        p = model.lm_head.output[0, -1, target].save() + torch.zeros(1)[0] * layer
