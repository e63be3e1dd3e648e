# for loops: the iterable is evaluated before the target; else is a region.
# RUN: %ivc dump-ir %s | FileCheck %s
for i, v in enumerate(xs):
    continue
else:
    pass
# CHECK:      %[[IT:[0-9]+]] = call
# CHECK:      %[[T:[0-9]+]] = tuple.store
# CHECK-NEXT: for %[[T]], %[[IT]] @3:1-6:9 {
# CHECK-NEXT:   continue
# CHECK-NEXT: } else {
# CHECK-NEXT:   pass
# CHECK-NEXT: }
