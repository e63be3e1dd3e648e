# exit (and quit) raise SystemExit and close stdin when called; from a
# mediator that can take down the serving process. Holding a reference is
# refused, since the call can happen anywhere later.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Exits") as tracer:
    stop = exit
    hidden = model.transformer.h[4].output[0].save()
