# input() reads the server's stdin: at best it blocks the worker forever, at
# worst it consumes another process's input. It also echoes a prompt to the
# server's stdout.
# Known from: pyjail write-ups on the site module's interactive helpers.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Interactive") as tracer:
    layer = int(input("layer? "))
    hidden = model.transformer.h[layer].output[0].save()
