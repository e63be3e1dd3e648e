# Look-alike: dunders at module level (__all__, a __post_init__ in a
# dataclass, the __name__ guard around the trace). Only the mediator and
# what it reaches are judged; module-level code runs on the researcher's
# side.
# Expected: FAST
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "{{isolate|reject}}"
# CHECK: "tier": "fast"
# CHECK-NOT: "tier": "{{isolate|reject}}"
from dataclasses import dataclass

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

__all__ = ["Config"]


@dataclass
class Config:
    layer: int = 4

    def __post_init__(self):
        self.layer = max(0, self.layer)


cfg = Config()
LAYER = cfg.layer

if __name__ == "__main__":
    with model.trace("Guarded") as tracer:
        hidden = model.transformer.h[LAYER].output[0].save()
