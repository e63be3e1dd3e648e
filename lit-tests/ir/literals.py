# Literals of every kind and displays.
# RUN: %ivc dump-ir %s | FileCheck %s
0x1F, 1_000, 1e-5, 3J, True, False, None, ...
# CHECK: int 0x1F
# CHECK: int 1_000
# CHECK: float 1e-5
# CHECK: complex 3J
# CHECK: true
# CHECK: false
# CHECK: none
# CHECK: ellipsis
[1, *xs]; (1,); {1, 2}; {"a": 1, **d}; ()
# CHECK: list %{{[0-9]+}}, %{{[0-9]+}}
# CHECK: tuple %{{[0-9]+}} @
# CHECK: set
# CHECK: dict %{{[0-9]+}}, %{{[0-9]+}}, _, %{{[0-9]+}}
# CHECK: tuple @
