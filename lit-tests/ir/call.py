# Calls: positional, *args, keyword, **kwargs, and a bare generator argument.
# RUN: %ivc dump-ir %s | FileCheck %s
f(1, *args, key=2, **kw)
# CHECK: %[[F:[0-9]+]] = name "f"
# CHECK: %[[S:[0-9]+]] = starred
# CHECK: %[[K:[0-9]+]] = keyword "key"
# CHECK: %[[W:[0-9]+]] = kwsplat
# CHECK: call %[[F]], %{{[0-9]+}}, %[[S]], %[[K]], %[[W]] @3:1-3:25
g(x for x in y)
# CHECK: %[[G:[0-9]+]] = genexp
# CHECK: call %{{[0-9]+}}, %[[G]]
