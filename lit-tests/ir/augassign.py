# Augmented assignment keeps its operator; the target is a store.
# RUN: %ivc dump-ir %s | FileCheck %s
k += 1
h[:, -1] @= d
# CHECK: %[[K:[0-9]+]] = name.store "k"
# CHECK: aug_assign += %[[K]]
# CHECK: %[[S:[0-9]+]] = subscript.store
# CHECK: aug_assign @= %[[S]]
