# Modules used where the analysis keeps sight of them stay FAST: attributes
# and calls of a module, aliases (`F = torch.nn.functional`), dtypes and
# catalogued functions passed as arguments, a module chosen by a
# conditional and then read, and annotations (evaluated, then kept only in
# `__annotations__`) of any kind; statistics' means and deviations of a
# list of numbers.
# Expected: every mediator FAST.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
import statistics
from collections.abc import Sequence
from typing import Optional

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def scale(h: torch.Tensor, factors: Sequence[float], k: Optional[float] = None) -> torch.Tensor:
    return h * (k or factors[0])


with model.trace("modules in sight"):
    F = torch.nn.functional
    h = model.transformer.h[0].output[0]
    half = h.to(torch.float16).to(dtype=torch.float32)
    acts = list(map(torch.relu, [h])) + [F.gelu(h)]
    linear = isinstance(h, torch.Tensor)
    nn = torch.nn.functional if linear else F
    total: torch.Tensor = scale(h, [0.5]) + acts[0]
    model.transformer.h[0].output[0][:] = total + nn.silu(half)
    norms = [h.norm().item(), half.norm().item()]
    summary = statistics.fmean(norms) + statistics.pstdev(norms) + statistics.mean(norms)
