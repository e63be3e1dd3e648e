# Each tracer.invoke body is a mediator; code beside the invokes is one more.
# RUN: %ivc dump-ir %s | FileCheck %s
with model.trace() as tracer:
    with tracer.invoke("clean"):
        clean = model.transformer.h[3].output[0].save()
    with tracer.invoke("corrupted"):
        model.transformer.h[3].output[0][:] = clean
    logits = model.lm_head.output.save()
# CHECK:      trace #0 trace receiver="model" tracer="tracer" @3:1-8:41
# CHECK-NEXT:   mediator #0.0 invoke @4:5-5:56 body=@5:9-5:56
# CHECK-NEXT:   mediator #0.1 invoke @6:5-7:52 body=@7:9-7:52
# CHECK-NEXT:   mediator #0.2 body @4:5-8:41
# CHECK:      with invoke#0
# CHECK:      with invoke#1
