# raise (bare, with cause), del of every target kind, assert with a message.
# RUN: %ivc dump-ir %s | FileCheck %s
raise
raise E("x") from cause
del a, b.c, d[0]
assert x > 0, "msg"
# CHECK: raise _, _ @3:1-3:6
# CHECK: raise %{{[0-9]+}}, %{{[0-9]+}} @4:1
# CHECK: %[[A:[0-9]+]] = name.del "a"
# CHECK: %[[C:[0-9]+]] = attr.del "c"
# CHECK: %[[D:[0-9]+]] = subscript.del
# CHECK: del %[[A]], %[[C]], %[[D]]
# CHECK: assert %{{[0-9]+}}, %{{[0-9]+}}
