# lambda: parameters (and their defaults) outside, the body in a region ending in return.
# RUN: %ivc dump-ir %s | FileCheck %s
f = lambda q, *r, s=2, **t: q + s
# CHECK:      %[[Q:[0-9]+]] = param.store "q"
# CHECK-NEXT: %[[R:[0-9]+]] = param.store varargs "r"
# CHECK-NEXT: %[[TWO:[0-9]+]] = int 2
# CHECK-NEXT: %[[S:[0-9]+]] = param.store kwonly "s" %[[TWO]], _
# CHECK-NEXT: %[[T:[0-9]+]] = param.store varkw "t"
# CHECK-NEXT: %[[L:[0-9]+]] = lambda %[[Q]], %[[R]], %[[S]], %[[T]] @3:5-3:34 {
# CHECK:        %[[SUM:[0-9]+]] = binop +
# CHECK-NEXT:   return %[[SUM]]
# CHECK-NEXT: }
# CHECK-NEXT: %[[F:[0-9]+]] = name.store "f"
# CHECK-NEXT: assign %[[F]], %[[L]]
