# Walrus binds a name; a conditional evaluates its condition first.
# RUN: %ivc dump-ir %s | FileCheck %s
(n := 10)
x = y if c else z
# CHECK: walrus "n"
# CHECK:      %[[C:[0-9]+]] = name "c"
# CHECK-NEXT: %[[Y:[0-9]+]] = name "y"
# CHECK-NEXT: %[[Z:[0-9]+]] = name "z"
# CHECK-NEXT: ifexp %[[C]], %[[Y]], %[[Z]]
