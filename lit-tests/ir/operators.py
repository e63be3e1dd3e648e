# Boolean, unary, binary and chained comparison operators.
# RUN: %ivc dump-ir %s | FileCheck %s
a and b or not c
# CHECK: boolop and
# CHECK: unary not
# CHECK: boolop or
-x + ~y ** 2 // 3 @ m
# CHECK: unary -
# CHECK: binop **
# CHECK: unary ~
# CHECK: binop //
# CHECK: binop @
a < b <= c is not d not   in e
# CHECK: compare <,<=,is not,not in %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}
