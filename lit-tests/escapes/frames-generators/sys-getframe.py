# sys._getframe(n) returns the frame n levels up the call stack: the server's
# own frames, with their locals and globals, in one call.
# Known from: pysandbox, which removed sys._getframe, and pyjail CTF write-
# ups.
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
import sys

from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Stack frames") as tracer:
    hidden = model.transformer.h[9].output[0]
    server_globals = sys._getframe(1).f_globals
    logits = model.lm_head.output.save()
