# A closure's __closure__ is a tuple of cells, and cell.cell_contents (a
# non-dunder name) reads or, since Python 3.7, writes the captured value.
# pyjail write-ups use it to read objects a wrapper meant to hide.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def make_scaler(alpha):
    def scaler(x):
        return x * alpha

    return scaler


double = make_scaler(2.0)

with model.trace("Bonjour le") as tracer:
    captured = double.__closure__[0].cell_contents
    logits = model.lm_head.output.save()
