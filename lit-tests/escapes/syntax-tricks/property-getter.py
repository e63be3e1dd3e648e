# Reading an attribute can run code: `cfg.layer` below is a property whose
# getter imports a module. An attribute read on an instance of a same-file
# class must be followed into its property (and __getattr__) bodies.
# Known from: pyjail write-ups that run code through implicit dunder calls
# instead of explicit ones.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class Config:
    @property
    def layer(self):
        return len(__import__("os").listdir(".")) % 12


cfg = Config()

with model.trace("Properties") as tracer:
    hidden = model.transformer.h[cfg.layer].output[0].save()
