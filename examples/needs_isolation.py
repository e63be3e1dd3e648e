"""Legitimate, but it must run in the sandboxed worker (ISOLATE).

Power iteration inside the trace finds the top singular direction of the
layer-6 residual stream, then projects it out. The number of iterations
depends on the data (a `while` loop over a convergence test), which ivc
cannot bound statically, and the result is formatted with `json.dumps`
inside the trace, which is not a catalogued tensor op. Neither is an
escape, so the mediator is not rejected; it is simply not provably cheap
and pure, so the server runs it in a worker instead of in-process.
"""
import json

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2", device_map="auto")
TOLERANCE = 1e-4
MAX_STEPS = 100

with model.trace("The quick brown fox jumps over the lazy dog") as tracer:
    hidden = model.transformer.h[6].output[0][0]          # (seq, d_model)
    gram = hidden.T @ hidden
    vec = torch.ones(gram.shape[0], device=gram.device) / gram.shape[0] ** 0.5
    change, steps = 1.0, 0
    while change > TOLERANCE and steps < MAX_STEPS:    # data-dependent loop: ISOLATE
        nxt = gram @ vec
        nxt = nxt / nxt.norm()
        change = (nxt - vec).norm().item()
        vec, steps = nxt, steps + 1
    coeff = hidden @ vec
    model.transformer.h[6].output[0][0] -= coeff[:, None] * vec[None, :]
    summary = json.dumps({"steps": steps, "residual_change": change}).save()  # ISOLATE
    logits = model.lm_head.output.save()

print(summary)
