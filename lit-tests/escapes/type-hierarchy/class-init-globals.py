# From an instance of a class written in Python, __class__.__init__ is a
# plain function, and its __globals__ is the defining module's namespace,
# builtins included. Jinja2 SSTI payloads and pyjail write-ups use exactly
# this chain (`x.__class__.__init__.__globals__`).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from dataclasses import dataclass

from nnsight import LanguageModel


@dataclass
class SteerConfig:
    layer: int = 6
    scale: float = 4.0


cfg = SteerConfig()
model = LanguageModel("openai-community/gpt2")

with model.trace("The weather today is") as tracer:
    model.transformer.h[cfg.layer].output[0][:] *= cfg.scale
    namespace = cfg.__class__.__init__.__globals__
    logits = model.lm_head.output.save()
