# A name that keeps a saved value is saved: a display or comprehension of
# saves, an item stored, a value appended, extended or added. A saved value
# handed to a function that makes something else (torch.stack) keeps no
# name saved.
# RUN: %ivc plan %s | FileCheck %s
import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
probs = []

# CHECK:      "saves": [
# CHECK-NEXT:   "probs",
# CHECK-NEXT:   "every",
# CHECK-NEXT:   "by_layer",
# CHECK-NEXT:   "grid",
# CHECK-NEXT:   "seen",
# CHECK-NEXT:   "pairs",
# CHECK-NEXT:   "last"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in"):
    for layer in model.transformer.h:
        probs.append(layer.output[0].softmax(-1).save())
    every = [b.output[0].save() for b in model.transformer.h]
    by_layer = {}
    by_layer[0] = model.transformer.h[0].output[0].save()
    grid = [[None]]
    grid[0][0] = model.transformer.h[1].output[0].save()
    seen = set()
    seen.add(model.transformer.ln_f.output.save())
    pairs = []
    pairs += [(1, model.lm_head.output.save())]
    stacked = torch.stack([model.lm_head.output.save()])
    last = model.lm_head.output.save()
