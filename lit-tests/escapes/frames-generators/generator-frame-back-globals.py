# Generator frames reach the caller's globals: g.gi_frame.f_back.f_globals.
# A suspended generator's frame links to the frame that created it, so the
# server code running the mediator is one f_back away. A standard move in
# pyjail write-ups once dunders are filtered (gi_frame and f_back are not
# dunders).
# RUN: %ivc plan %s | FileCheck %s
# CHECK-NOT: "tier": "fast"
# CHECK: "tier": "reject"
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("hi") as tracer:
    g = (x for x in [1])
    f = g.gi_frame.f_back.f_globals
    out = model.lm_head.output.save()
