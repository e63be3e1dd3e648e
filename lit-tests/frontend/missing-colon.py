# A compound statement without its ':' says so at the end of its header.
# RUN: not %ivc dump-ir %s 2>&1 >/dev/null | FileCheck %s
def f()
    return 1
# CHECK: missing-colon.py:3:8: error: expected ':' [IVC001]
# CHECK-NEXT: def f()
# CHECK-NEXT: {{^       \^$}}
