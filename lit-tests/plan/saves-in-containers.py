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

# So does an annotated assignment, an instance of the file's classes made
# from a saved value, and what a function of the file returns when it
# returns one: directly, or a name of its own that holds one. A helper that
# saves and returns something else keeps no name saved.


class Record:
    def __init__(self, layer, act):
        self.layer, self.act = layer, act


def grab(block):
    return block.output[0].save()


def read(block):
    kept = {"mlp": block.mlp.output.save()}
    return kept


def marked(block):
    out = block.output[0] * 2
    out.save()
    return out


def norm_only(block):
    block.output[0].save()
    return 1


# CHECK:      "saves": [
# CHECK-NEXT:   "typed",
# CHECK-NEXT:   "records",
# CHECK-NEXT:   "grabbed",
# CHECK-NEXT:   "cache",
# CHECK-NEXT:   "doubled"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in"):
    typed: torch.Tensor = model.transformer.h[0].output[0].save()
    records = []
    records.append(Record(0, model.transformer.h[0].output[0].save()))
    grabbed = grab(model.transformer.h[1])
    cache = {i: read(model.transformer.h[i]) for i in range(2)}
    doubled = marked(model.transformer.h[2])
    one = norm_only(model.transformer.h[3])

# Saves unpacked into several names save each, and what setdefault returns
# is its dict's.
# CHECK:      "saves": [
# CHECK-NEXT:   "attn",
# CHECK-NEXT:   "mlp",
# CHECK-NEXT:   "by_layer"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in"):
    attn, mlp = model.transformer.h[0].attn.output.save(), model.transformer.h[0].mlp.output.save()
    by_layer = {}
    by_layer.setdefault(0, []).append(model.transformer.h[0].output[0].save())
