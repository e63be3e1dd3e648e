# Annotated assignment, with and without a value.
# RUN: %ivc dump-ir %s | FileCheck %s
n: int = 3
# CHECK:      %[[V:[0-9]+]] = int 3
# CHECK-NEXT: %[[T:[0-9]+]] = name "int"
# CHECK-NEXT: %[[N:[0-9]+]] = name.store "n"
# CHECK-NEXT: ann_assign %[[N]], %[[T]], %[[V]]
m: list
# CHECK: ann_assign %{{[0-9]+}}, %{{[0-9]+}}, _
