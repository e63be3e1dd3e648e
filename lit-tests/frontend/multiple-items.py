# A trace may share its `with` with other context managers.
# RUN: %ivc dump-ir %s | FileCheck %s
with torch.no_grad(), model.trace("x") as tracer:
    h = model.transformer.h[0].output.save()
# CHECK: trace #0 trace receiver="model" tracer="tracer" @3:1-4:45
# CHECK: with trace#0 %{{[0-9]+}}, %{{[0-9]+}}
