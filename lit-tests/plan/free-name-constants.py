# A runtime binds a mediator's free names from its caller's values, not from
# the file: `scale = 2` here may be -1 there, and `ids // scale` traps. So a
# name the file binds once, outside the traces, to a constant (literals,
# displays, arithmetic and subscripts of them, imports' members, the file's
# functions and calls of them and of pure builtins with constants) is a
# definition the plan carries, which the runtime runs; any
# other free name is the caller's, and nothing but a kind the runtime checks
# is concluded from what the file binds it to.
# RUN: %ivc plan %s | FileCheck %s
# RUN: %ivc plan %s | FileCheck %s --check-prefix=CLOSURE
# RUN: %ivc plan %s | FileCheck %s --check-prefix=TABLE
# RUN: %ivc check --verify --remarks %s
import functools

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def logit_diff(logits):
    return logits[0, -1, 1] - logits[0, -1, 2]


def make_scale(alpha):
    def scale(x):
        return x * alpha

    return scale


scale = 2
width = 40
LAYERS = [2, 4]
METRICS = {"ld": logit_diff, "relu": torch.relu}
halve = make_scale(0.5)
n_layers = len(LAYERS) + LAYERS[0] * 2
SWEEP = range(3)
SUBJECT = slice(1, 4)
SCORES = {"ld": lambda lg: lg[0, -1, 1] - lg[0, -1, 2]}
bound_diff = functools.partial(logit_diff)
computed_scale = abs(int(input()))
computed_width = int(input())
steer = torch.randn(768)

# Definitions come in source order, as Python runs the module.
# CHECK:      "definitions": [
# CHECK-NEXT:   {
# CHECK-NEXT:     "name": "logit_diff",
# CHECK:          "name": "make_scale",
# CHECK:          "name": "scale",
# CHECK-NEXT:     "source": "scale = (2)\n"
# CHECK:          "name": "width",
# (A list is pinned only where nothing outside the traces may change it:
# its name spelled there, in a comment too, only to read it.)
# CHECK:          "source": "{{L}}AYERS = ([2, 4])\n"
# CHECK:          "source": "{{M}}ETRICS = ({\"ld\": logit_diff, \"relu\": torch.relu})\n"
# CHECK:          "source": "halve = (make_scale(0.5))\n"
# CHECK:          "source": "n_layers = (len({{L}}AYERS) + {{L}}AYERS[0] * 2)\n"
# CHECK:          "source": "SWEEP = (range(3))\n"
# CHECK:          "source": "SUBJECT = (slice(1, 4))\n"
# CHECK:          "source": "{{S}}CORES = ({\"ld\": lambda lg: lg[0, -1, 1] - lg[0, -1, 2]})\n"
# CHECK:          "source": "bound_diff = (functools.partial(logit_diff))\n"
# CHECK:      "free_names": [
# CLOSURE: "name": "make_scale",
# CLOSURE: "name": "halve",
# TABLE: "name": "logit_diff",
# TABLE: "name": "{{M}}ETRICS",
# CHECK-NEXT:   "functools",
# CHECK-NEXT:   "torch"
# CHECK-NEXT: ],
# CHECK:      "tier": "fast"
with model.trace("The Eiffel Tower is in"):
    ids = torch.full((1,), -(2**63))
    q = ids // scale
    bar = "#" * width
    blank = torch.zeros(n_layers)
    for layer in LAYERS:
        h = halve(model.transformer.h[layer].output[0])
    scores = {name: fn(model.lm_head.output) for name, fn in METRICS.items()}
    swept = [model.transformer.h[i].output[0][:, SUBJECT] for i in SWEEP]
    ld = SCORES["ld"](model.lm_head.output) + bound_diff(model.lm_head.output)

# A caller's value is checked for the one kind the file's bindings give the
# name (a tensor, a number, a string, a bool, None), and relied on for that.
# CHECK:      "free_names": [
# CHECK-NEXT:   "computed_scale",
# CHECK-NEXT:   "computed_width",
# CHECK-NEXT:   "steer",
# CHECK-NEXT:   "torch"
# CHECK-NEXT: ],
# CHECK:      "free_types": {
# CHECK-NEXT:   "computed_width": "number",
# CHECK-NEXT:   "steer": "tensor"
# CHECK-NEXT: },
# CHECK:      "tier": "isolate"
with model.trace("The Eiffel Tower is in"):
    h = model.transformer.h[6].output[0] + steer
    ids = torch.full((1,), -(2**63))
    q = ids // computed_scale  # expected-remark {{uses 'ids // computed_scale' (integer-division: the minimum by -1 traps)}}
    bar = "#" * computed_width  # expected-remark {{'"#" * computed_width' repeats a sequence a number of times ivc cannot bound}}
