# Attribute and subscript chains, slices with absent parts, tuple indices.
# RUN: %ivc dump-ir %s | FileCheck %s
model.transformer.h[5].output[0][:, -1]
# CHECK: attr "transformer"
# CHECK: attr "h"
# CHECK: %[[FIVE:[0-9]+]] = int 5
# CHECK: subscript %{{[0-9]+}}, %[[FIVE]]
# CHECK: attr "output"
# CHECK: %[[ALL:[0-9]+]] = slice _, _, _
# CHECK: %[[IDX:[0-9]+]] = tuple %[[ALL]], %{{[0-9]+}}
# CHECK: subscript %{{[0-9]+}}, %[[IDX]]
a[1:2, ::3, ...]
# CHECK: slice %{{[0-9]+}}, %{{[0-9]+}}, _
# CHECK: slice _, _, %{{[0-9]+}}
# CHECK: ellipsis
