# while with an else region.
# RUN: %ivc dump-ir %s | FileCheck %s
while x < 3:
    break
else:
    y = 1
# CHECK:      %[[C:[0-9]+]] = compare < %{{[0-9]+}}, %{{[0-9]+}}
# CHECK-NEXT: while %[[C]] @3:1-6:10 {
# CHECK-NEXT:   break
# CHECK-NEXT: } else {
