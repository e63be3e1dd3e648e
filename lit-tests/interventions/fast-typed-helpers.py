# Helpers with type annotations, as a typed research codebase writes them:
# annotations are evaluated where the function is defined, and `list[int]`,
# `dict[str, Tensor] | None` or `torch.Tensor` are plain subscripts, unions
# and attributes, so the mediator stays FAST; so are aliases of typing's
# forms (`Reduction = Literal["mean", "max"]`), which the plan pins.
# Expected: every mediator FAST.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from typing import Literal, Optional

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


Reduction = Literal["mean", "max"]


def mean_over(hidden: torch.Tensor, positions: list[int], how: Reduction = "mean") -> torch.Tensor:
    picked = hidden[:, positions]
    return picked.mean(dim=1) if how == "mean" else picked.amax(dim=1)


def steer(
    hidden: torch.Tensor,
    directions: dict[str, torch.Tensor] | None = None,
    scale: Optional[float] = None,
) -> tuple[torch.Tensor, int]:
    total: float = scale if scale is not None else 1.0
    for name in sorted(directions or {}):
        hidden = hidden + total * directions[name]
    return hidden, len(directions or {})


with model.trace("Typed helpers") as tracer:
    h = model.transformer.h[4].output[0]
    pooled = mean_over(h, [0, 1, 2]).save()
    steered, count = steer(h, {"honesty": h[0, 0]}, scale=2.0)
    model.transformer.h[4].output[0][:] = steered
