# Assignment with every target shape; chained targets share one value.
# RUN: %ivc dump-ir %s | FileCheck %s
a = b = 1
# CHECK:      %[[ONE:[0-9]+]] = int 1 @3:9-3:10
# CHECK-NEXT: %[[A:[0-9]+]] = name.store "a"
# CHECK-NEXT: %[[B:[0-9]+]] = name.store "b"
# CHECK-NEXT: assign %[[A]], %[[B]], %[[ONE]] @3:1-3:10
x, (y, *z) = t
# CHECK:      %[[Z:[0-9]+]] = name.store "z"
# CHECK-NEXT: %[[SZ:[0-9]+]] = starred.store %[[Z]]
# CHECK-NEXT: %[[IN:[0-9]+]] = tuple.store %{{[0-9]+}}, %[[SZ]]
# CHECK-NEXT: %[[OUT:[0-9]+]] = tuple.store %{{[0-9]+}}, %[[IN]]
# CHECK-NEXT: assign %[[OUT]], %{{[0-9]+}}
obj.attr, arr[0] = 1, 2
# CHECK: attr.store "attr"
# CHECK: subscript.store
