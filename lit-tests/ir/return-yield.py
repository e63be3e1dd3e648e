# return, yield (bare and valued) and yield from.
# RUN: %ivc dump-ir %s | FileCheck %s
def g():
    yield 1
    yield
    z = yield from h()
    return
# CHECK: %[[Y:[0-9]+]] = yield %{{[0-9]+}}
# CHECK-NEXT: expr %[[Y]]
# CHECK: yield _
# CHECK: %[[YF:[0-9]+]] = yield_from
# CHECK: assign %{{[0-9]+}}, %[[YF]]
# CHECK: return _
