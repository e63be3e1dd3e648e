# RUN: %ivc dump-ir %s | FileCheck %s
with model.trace("hello") as tracer:
    h = model.transformer.h[0].output.save()

# CHECK: trace #0 trace receiver="model" tracer="tracer" @2:1-3:45
# CHECK-NEXT:   mediator #0.0 body @3:5-3:45 body=@3:5-3:45
# CHECK: with trace#0 %{{[0-9]+}} @2:1-3:45 {
# CHECK:   attr "output"
# CHECK:   assign
# CHECK: }
