# Regions nest in functions, loops, conditionals and sessions; a session's
# traces name it as their parent, and the session's own mediator refers to them
# without containing their bodies.
# RUN: %ivc dump-ir %s | FileCheck %s
def run(model, prompts):
    for p in prompts:
        if p:
            with model.trace(p) as tracer:
                out = model.output.save()
with model.session() as session:
    with model.trace("a") as t1:
        x = model.transformer.h[0].output.save()
    session.log("between")
    with model.trace("b") as t2:
        y = model.transformer.h[1].output.save()
# CHECK:      trace #0 trace receiver="model" tracer="tracer" @8:13-9:42
# CHECK-NEXT:   mediator #0.0 body
# CHECK-NEXT: trace #1 session receiver="model" tracer="session" @10:1-15:49
# CHECK-NEXT:   mediator #1.0 body
# CHECK-NEXT: trace #2 trace receiver="model" tracer="t1" parent=#1 @11:5-12:49
# CHECK-NEXT:   mediator #2.0 body
# CHECK-NEXT: trace #3 trace receiver="model" tracer="t2" parent=#1 @14:5-15:49
# CHECK:      with trace#1
# CHECK:        with trace#2
# CHECK:        with trace#3
