# elif nests in the else region, as in CPython's ast.
# RUN: %ivc dump-ir %s | FileCheck %s
if a:
    p = 1
elif b:
    p = 2
else:
    p = 3
# CHECK:      if %{{[0-9]+}} @3:1-8:10 {
# CHECK:      } else {
# CHECK-NEXT:   %{{[0-9]+}} = name "b"
# CHECK-NEXT:   if %{{[0-9]+}} @5:1-6:10 {
# CHECK:        } else {
# CHECK:          int 3
