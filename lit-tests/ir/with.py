# with: several items, `as` targets of any shape, parenthesized items.
# RUN: %ivc dump-ir %s | FileCheck %s
with open(p) as f, lock:
    pass
with (a as (b, c), d as e):
    pass
# CHECK: %[[F:[0-9]+]] = name.store "f"
# CHECK: %[[I1:[0-9]+]] = with_item %{{[0-9]+}}, %[[F]]
# CHECK: %[[I2:[0-9]+]] = with_item %{{[0-9]+}}, _
# CHECK: with %[[I1]], %[[I2]] @3:1-4:9 {
# CHECK: %[[BC:[0-9]+]] = tuple.store
# CHECK: with_item %{{[0-9]+}}, %[[BC]]
