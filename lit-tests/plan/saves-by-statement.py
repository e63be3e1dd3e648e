# `x.save()` as a statement saves the object x holds, as nnsight marks it,
# whatever it is (a dict, a list, a number, a string); so does
# nnsight.save(x). A helper's local saved that way is not the mediator's
# name, but the name the helper's return is bound to holds the saved object.
# RUN: %ivc plan %s | FileCheck %s
import json

import nnsight
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def summarize(hidden):
    local = {"norm": hidden.norm()}
    local.save()
    return local


# CHECK:      "saves": [
# CHECK-NEXT:   "stats",
# CHECK-NEXT:   "norms",
# CHECK-NEXT:   "scale",
# CHECK-NEXT:   "text",
# CHECK-NEXT:   "hidden",
# CHECK-NEXT:   "summary"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in"):
    hidden = model.transformer.h[0].output[0]
    stats = {"norm": hidden.norm(), "mean": hidden.mean()}
    stats.save()
    norms = [model.transformer.h[i].output[0].norm() for i in range(3)]
    norms.save()
    scale = hidden.norm().item()
    nnsight.save(scale)
    text = f"{scale:.3f}"
    text.save()
    hidden.save()
    summary = summarize(hidden)
