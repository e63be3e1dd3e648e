# quit() is exit() under another name, and just as final for the server.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Quit") as tracer:
    hidden = model.transformer.h[5].output[0].save()
    quit()
