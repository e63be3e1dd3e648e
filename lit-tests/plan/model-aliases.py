# A name bound outside the trace, once, to a path from the receiver is the
# model's, not the caller's: the plan names the path and a runtime binds it.
# A name bound to anything more than such a path, to an activation, or
# through a private or special attribute stays a free name.
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")
block = model.transformer.h[1]
n = model.config.n_layer
whole = model
chosen = model.transformer.h[n - 1]
early = model.transformer.h[0].output
escape = model.__class__.__init__.__globals__


def run(ids):
    head = model.lm_head
    # CHECK:      "free_names": [
    # CHECK-NEXT:   "chosen",
    # CHECK-NEXT:   "early",
    # CHECK-NEXT:   "escape"
    # CHECK-NEXT: ],
    # CHECK:      "model_aliases": {
    # CHECK-NEXT:   "block": "transformer.h.1",
    # CHECK-NEXT:   "head": "lm_head",
    # CHECK-NEXT:   "n": "config.n_layer",
    # CHECK-NEXT:   "whole": ""
    # CHECK-NEXT: },
    with model.trace(ids):
        x = block.output[0] * n + head.output.sum() + whole.transformer.h[0].output[0]
        y = chosen.output.save() + early + escape
