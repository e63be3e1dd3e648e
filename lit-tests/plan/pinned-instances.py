# A module-level instance of the file's class, made of constants and read
# only where mediators run, is made again for each mediator: the plan pins
# it with its class (a runtime could not send it). One that outer code
# changes after making it (a method called, an attribute written, handed to
# a function) stays the caller's. A compiled pattern and a namedtuple class
# are pinned too.
# RUN: %ivc plan %s | FileCheck %s
import re
from collections import namedtuple

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


class HeadConfig:
    def __init__(self, width):
        self.width = width

    @classmethod
    def tiny(cls):
        return cls(8)


class Probe(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(768, 2)


def train(probe):
    return probe


CONFIG = HeadConfig.tiny()
PATTERN = re.compile(r"h\.(\d+)")
fresh = Probe()
fitted = Probe()
fitted.eval()
tuned = HeadConfig(4)
tuned.width = 16
handed = Probe()
train(handed)
Record = namedtuple("Record", ["layer", "norm"])
Widened = namedtuple("Widened", "layer norm")
Widened.unit = "nats"

# (The checks spell the pinned names in pieces: a name the file's text
# spells anywhere else, a comment included, is not pinned.)
# CHECK:      "name": "HeadConfig"
# CHECK:      "name": "Probe"
# CHECK:      "name": "{{C}}ONFIG",
# CHECK-NEXT: "source": "{{C}}ONFIG = (HeadConfig.tiny())\n"
# CHECK:      "name": "PATTERN",
# CHECK:      "name": "{{f}}resh",
# CHECK-NEXT: "source": "{{f}}resh = (Probe())\n"
# CHECK:      "name": "{{R}}ecord",
# CHECK-NEXT: "source": "{{R}}ecord = (namedtuple(\"{{R}}ecord\", [\"layer\", \"norm\"]))\n"
# CHECK:      "free_names": [
# CHECK-NEXT:   "{{W}}idened",
# CHECK-NEXT:   "fitted",
# CHECK-NEXT:   "handed",
# CHECK-NEXT:   "namedtuple",
# CHECK-NEXT:   "re",
# CHECK-NEXT:   "torch",
# CHECK-NEXT:   "tuned"
# CHECK-NEXT: ],
with model.trace("Pinned"):
    h = model.transformer.h[int(PATTERN.fullmatch("h.1").group(1))].output[0]
    narrow = h[..., :CONFIG.width].save()
    scores = fresh.linear(h).save()
    others = (fitted, tuned.width, handed)
    row = Record(1, narrow.norm()).save()
    widened = Widened(1, 2).save()
