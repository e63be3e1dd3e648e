# All four comprehensions; the first iterable is evaluated outside the region.
# RUN: %ivc dump-ir %s | FileCheck %s
[x * 2 for x in range(3) if x for y in x]
# CHECK:      %[[IT:[0-9]+]] = call
# CHECK-NEXT: listcomp %[[IT]] @3:1-3:42 {
# CHECK-NEXT:   name.store "x"
# CHECK-NEXT:   comp_for %{{[0-9]+}}, _
# CHECK:        comp_if
# CHECK:        comp_for %{{[0-9]+}}, %{{[0-9]+}}
# CHECK:        comp_yield
{k: v for k, v in d.items()}
# CHECK: dictcomp
# CHECK: comp_yield %{{[0-9]+}}, %{{[0-9]+}}
{s for s in t}
# CHECK: setcomp
(g for g in t)
# CHECK: genexp
