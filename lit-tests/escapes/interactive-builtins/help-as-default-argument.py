# The reference can sit in a helper's default argument: `pager=help` is
# evaluated when the def runs and stored in __defaults__, so the helper the
# trace calls carries the interactive helper with it.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def describe(hidden, pager=help):
    return hidden.norm(dim=-1)


with model.trace("Defaults") as tracer:
    norms = describe(model.transformer.h[6].output[0]).save()
