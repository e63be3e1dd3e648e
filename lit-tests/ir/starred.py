# A display element's `*` applies to the whole element, as in Python, where
# tree-sitter-python attaches it to the element's leftmost name:
# `[*range(3)]` is `[*(range(3))]`, not a call of `*range`.
# RUN: %ivc dump-ir %s | FileCheck %s
xs = [*range(3)]
# CHECK:      %[[R:[0-9]+]] = name "range"
# CHECK-NEXT: %[[N:[0-9]+]] = int 3
# CHECK-NEXT: %[[C:[0-9]+]] = call %[[R]], %[[N]] @5:8-5:16
# CHECK-NEXT: %[[S:[0-9]+]] = starred %[[C]] @5:7-5:16
# CHECK-NEXT: %{{[0-9]+}} = list %[[S]]
ys = {*a.b(c)}
# CHECK:      %[[A:[0-9]+]] = name "a"
# CHECK-NEXT: %[[B:[0-9]+]] = attr "b" %[[A]]
# CHECK-NEXT: %[[CC:[0-9]+]] = name "c"
# CHECK-NEXT: %[[CALL:[0-9]+]] = call %[[B]], %[[CC]]
# CHECK-NEXT: %[[S2:[0-9]+]] = starred %[[CALL]]
# CHECK-NEXT: %{{[0-9]+}} = set %[[S2]]
zs = *a.b, c
# CHECK:      %[[A3:[0-9]+]] = name "a"
# CHECK-NEXT: %[[B3:[0-9]+]] = attr "b" %[[A3]]
# CHECK-NEXT: %[[S3:[0-9]+]] = starred %[[B3]]
ws = [*a + b]
# CHECK:      %[[A4:[0-9]+]] = name "a"
# CHECK-NEXT: %[[B4:[0-9]+]] = name "b"
# CHECK-NEXT: %[[P4:[0-9]+]] = binop + %[[A4]], %[[B4]]
# CHECK-NEXT: %[[S4:[0-9]+]] = starred %[[P4]]
vs = [*f([*g(1)])]
# CHECK:      %[[F5:[0-9]+]] = name "f"
# CHECK-NEXT: %[[G5:[0-9]+]] = name "g"
# CHECK-NEXT: %[[I5:[0-9]+]] = int 1
# CHECK-NEXT: %[[GC5:[0-9]+]] = call %[[G5]], %[[I5]]
# CHECK-NEXT: %[[GS5:[0-9]+]] = starred %[[GC5]]
# CHECK-NEXT: %[[L5:[0-9]+]] = list %[[GS5]]
# CHECK-NEXT: %[[FC5:[0-9]+]] = call %[[F5]], %[[L5]]
# CHECK-NEXT: %[[FS5:[0-9]+]] = starred %[[FC5]]
# Where tree-sitter already reads it so, nothing changes.
us = [*a.b(c)[d], 1]
# CHECK:      %[[S6:[0-9]+]] = subscript
# CHECK-NEXT: %[[ST6:[0-9]+]] = starred %[[S6]]
print(*a.b(c))
# CHECK:      %[[C7:[0-9]+]] = call %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: %[[ST7:[0-9]+]] = starred %[[C7]]
# CHECK-NEXT: call %{{[0-9]+}}, %[[ST7]]
# CHECK-NOT:  starred
