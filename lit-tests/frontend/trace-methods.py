# Every trace method opens a region, on any receiver expression.
# RUN: %ivc dump-ir %s | FileCheck %s
with model.trace("a"):
    pass
with self.lm.generate("b", max_new_tokens=3) as gen:
    pass
with models[0].scan("c"):
    pass
with model.edit() as edited:
    pass
with model.session() as session:
    pass
with model.forward("d"):
    pass
# CHECK:      trace #0 trace receiver="model" @3:1-4:9
# CHECK-NEXT:   mediator #0.0 body
# CHECK-NEXT: trace #1 generate receiver="self.lm" tracer="gen" @5:1-6:9
# CHECK:      trace #2 scan receiver="models[0]" @7:1
# CHECK:      trace #3 edit receiver="model" tracer="edited"
# CHECK:      trace #4 session receiver="model" tracer="session"
# CHECK-NOT:  trace #5
