# global and nonlocal, one op per name; pass, break, continue.
# RUN: %ivc dump-ir %s | FileCheck %s
def f():
    global counter, total
    def inner():
        nonlocal x
        pass
# CHECK: global "counter"
# CHECK: global "total"
# CHECK: nonlocal "x"
# CHECK: pass
